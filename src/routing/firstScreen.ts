import { createContext, useEffect, useLayoutEffect, useRef } from 'react';
import { FIRST_SCREEN } from '../config/firstPage';

/**
 * True while a screen is drawn for the page, before the app runs (src/app/firstScreen.tsx): a form drawn so must
 * not send itself, so it has no submit button (its fields then never submit on Enter either) and posts, never
 * gets.
 */
export const DrawnBeforeStart = createContext(false);

/** What the user did on the first screen before the app took it over. */
export interface Handover {
  /** Each named field's value. */
  values: Record<string, string>;
  /**
   * The button pressed last before the app took over, by its label (`aria-label`, else its text; the page's
   * script records it, server/services/firstPage.ts); '' for Enter in a field; null for none.
   */
  pressed: string | null;
  /** The field that had the focus, with its selection, if one had. */
  focus: { name: string; selectionStart: number | null; selectionEnd: number | null; direction: 'forward' | 'backward' | 'none' | null } | null;
}

/** Set when a takeover carried the focus over: the screen's heading then leaves it where the user put it. */
let focusCarried = false;

/** Whether the last takeover carried the focus over, asked once (by the screen's heading, routing/RouteTitle.tsx). */
export function takeCarriedFocus(): boolean {
  const carried = focusCarried;
  focusCarried = false;
  return carried;
}

function firstScreen(page: Document): HTMLElement | null {
  return page.getElementById(FIRST_SCREEN.element);
}

/**
 * Takes over the first screen: reads what was typed into its fields and which one had the focus, then removes
 * it, which shows the app's own screen in its place (global.css hides the app while it is there). Null when
 * the page had none or it is gone already.
 */
export function takeOverFirstScreen(page: Document = document): Handover | null {
  const screen = firstScreen(page);
  if (!screen) return null;
  const values: Record<string, string> = {};
  for (const input of screen.querySelectorAll('input')) {
    if (input.name) values[input.name] = input.value;
  }
  const active = page.activeElement;
  const focused = active instanceof HTMLInputElement && screen.contains(active) && active.name ? active : null;
  const focus = focused
    ? {
        name: focused.name,
        // Null where a type has no selection (the API throws for none of those that the login uses).
        selectionStart: focused.selectionStart,
        selectionEnd: focused.selectionEnd,
        direction: focused.selectionDirection,
      }
    : null;
  const pressed = screen.getAttribute(FIRST_SCREEN.pressedAttribute);
  screen.remove();
  focusCarried = focus !== null;
  return { values, focus, pressed };
}

/**
 * A button's label as the page's script reads it (server/services/firstPage.ts, the same rule): its `aria-label`
 * unless missing or empty, else its text.
 */
export function buttonLabel(button: Element): string {
  return button.getAttribute('aria-label') || button.textContent || '';
}

/** Puts the focus and the selection back into the field that had them on the first screen (once its value is in). */
export function restoreFocus(handover: Handover, page: Document = document): void {
  const { focus } = handover;
  const input = focus && /^\w+$/.test(focus.name) ? page.querySelector<HTMLInputElement>(`input[name="${focus.name}"]`) : null;
  if (!focus || !input) return;
  input.focus({ preventScroll: true });
  if (focus.selectionStart !== null && focus.selectionEnd !== null) input.setSelectionRange(focus.selectionStart, focus.selectionEnd, focus.direction ?? undefined);
}

/**
 * Presses again what was pressed last on the first screen, once the app has started whole (its router takes
 * navigations only then): the app's button with the same label, or, for Enter in a field, the form of the
 * field that has the focus (else the screen's form) sent.
 */
export function pressAgain(pressed: string, page: Document = document): void {
  if (pressed === '') {
    const active = page.activeElement;
    ((active instanceof HTMLInputElement ? active.form : null) ?? page.querySelector<HTMLFormElement>('main form'))?.requestSubmit();
    return;
  }
  [...page.querySelectorAll('button')].find((button) => buttonLabel(button) === pressed)?.click();
}

/** Removes the first screen when another screen than the one drawn is shown (or the app cannot start). */
export function dismissFirstScreen(page: Document = document): void {
  firstScreen(page)?.remove();
}

/**
 * For the screen the page drew first, as the app renders it: takes the drawn one over when it mounts, before the
 * browser paints, and hands `fill` what was typed into the fields named in `values`; once they are in (`values`
 * equal to them), puts the focus back; then, after the app's first render has finished (a passive effect: the
 * router takes navigations only then), presses again the last button pressed.
 */
export function useFirstScreenHandover<Values extends { [Name in keyof Values]: string }>(values: Values, fill: (typed: Values) => void): void {
  const handedOver = useRef<Handover | null>(null);
  const pressLater = useRef<string | null>(null);
  useLayoutEffect(() => {
    const handover = takeOverFirstScreen();
    if (!handover) return;
    handedOver.current = handover;
    fill(Object.fromEntries(Object.keys(values).map((name) => [name, handover.values[name] ?? ''])) as Values);
    // Once, when the screen first shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useLayoutEffect(() => {
    const handover = handedOver.current;
    if (!handover || (Object.keys(values) as (keyof Values & string)[]).some((name) => values[name] !== (handover.values[name] ?? ''))) return;
    handedOver.current = null;
    restoreFocus(handover);
    pressLater.current = handover.pressed;
  });
  useEffect(() => {
    const pressed = pressLater.current;
    if (pressed === null) return;
    pressLater.current = null;
    pressAgain(pressed);
  });
}
