// The login screen the page draws before the app runs (src/app/firstScreen.tsx, src/routing/firstScreen.ts): the app's own screen, a form that
// cannot send itself, and a takeover that keeps what the user did on it.
import { screen, waitFor } from '@testing-library/react';
import { renderFirstLoginScreen } from '../../../src/app/firstScreen';
import { setRuntimeConfig } from '../../../src/config';
import { FIRST_SCREEN } from '../../../src/config/firstPage';
import { buttonLabel } from '../../../src/routing/firstScreen';
import { FIRST_SCREEN_SCRIPT } from '../../../server/services/firstPage';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { withSignedOutApi } from '../services/testServer';
import { testRuntimeConfig } from '../testConfig';
import { renderApp } from './renderApp';

const apiBaseUrl = withSignedOutApi();
beforeEach(() => {
  document.body.innerHTML = '';
});

/** Puts the first screen into the page as the server does, and runs the page's script on it. */
function drawFirstScreen(locale: 'en' | 'es'): HTMLElement {
  const holder = document.createElement('div');
  holder.id = FIRST_SCREEN.element;
  holder.innerHTML = renderFirstLoginScreen(locale, locale === 'es' ? es : en);
  document.body.append(holder);
  // The page's inline script, as the browser runs it (in the page's global scope).
  new Function(FIRST_SCREEN_SCRIPT)();
  // What the render left as the app's configuration is the test's again.
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: apiBaseUrl() }));
  return holder;
}

/** Each element of a screen as a user meets it: its tag, classes, own text and what it is (type, label, link). */
function outline(root: Element): string[] {
  return [...root.querySelectorAll('*')].map((element) => {
    const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join('');
    const what = ['type', 'aria-label', 'autocomplete', 'name', 'href', 'method'].map((name) => (element.hasAttribute(name) ? `${name}=${element.getAttribute(name)}` : '')).join(' ');
    return `${element.tagName} ${element.getAttribute('class') ?? ''} ${what.trim()} ${own}`.trim();
  });
}

const input = (root: ParentNode, name: string) => root.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;

describe('the login screen drawn before the app', () => {
  it('is the app\'s own login screen in its frame, but for a form that cannot send itself', async () => {
    const drawn = drawFirstScreen('es');
    const before = outline(drawn.querySelector('.dv-layout')!);
    // Nothing in it sends the form: no submit button (Enter in one of two text fields then sends nothing either),
    // and were it ever sent, it would post, never put the password into an address.
    expect(drawn.querySelectorAll('button[type="submit"], input[type="submit"], button:not([type])')).toHaveLength(0);
    expect(drawn.querySelector('form')!.getAttribute('method')).toBe('post');
    expect(drawn.querySelectorAll('form input:not([type="password"]):not([type="hidden"])')).toHaveLength(1);
    expect(drawn).toHaveTextContent('DNI o NIE');
    expect(drawn.innerHTML).toContain(FIRST_SCREEN.placeholders.privacyUrl);

    const { container } = renderApp('/login', { locale: 'es' });
    await waitFor(() => expect(document.getElementById(FIRST_SCREEN.element)).toBeNull());
    // The same elements, texts and controls, in the same order: only the form's sending and the runtime
    // configuration's placeholders differ.
    const after = outline(container.querySelector('.dv-layout')!);
    const comparable = (lines: string[]) =>
      lines.map((line) =>
        line
          .replace(/^BUTTON dv-button dv-button--blue type=(button|submit)/, 'BUTTON dv-button dv-button--blue')
          .replace(/ method=post/, '')
          .replace(/href=\S+privacy\S*/, 'href=privacy')
          .replace(/href=tel:\S+|\+\d[\d ]+/g, 'phone'),
      );
    expect(comparable(after)).toEqual(comparable(before));
  });

  it('hands over what was typed, the field with the focus and its selection', async () => {
    const drawn = drawFirstScreen('en');
    input(drawn, 'userId').value = '12345678z';
    const password = input(drawn, 'password');
    password.value = 'Secret-word-1';
    password.focus();
    password.setSelectionRange(2, 5);

    const { container } = renderApp('/login');
    await waitFor(() => expect(document.getElementById(FIRST_SCREEN.element)).toBeNull());
    const appPassword = input(container, 'password');
    expect(input(container, 'userId')).toHaveValue('12345678z');
    expect(appPassword).toHaveValue('Secret-word-1');
    await waitFor(() => expect(appPassword).toHaveFocus());
    expect([appPassword.selectionStart, appPassword.selectionEnd]).toEqual([2, 5]);
  });

  it('presses again the last button pressed on it: a language chosen there is chosen when the app takes over', async () => {
    const drawn = drawFirstScreen('es');
    // A press on the button's icon or text counts as the button's, as in a browser.
    drawn.querySelector<HTMLElement>('button[lang="en"] span')!.click();
    expect(drawn.getAttribute(FIRST_SCREEN.pressedAttribute)).toBe('EN English');

    const { store, router } = renderApp('/login?lang=es', { locale: 'es' });
    await waitFor(() => expect(store.getState().ui.locale).toBe('en'));
    // The choice outlives the link's ?lang=, as a press on the app's own button does.
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('records Enter in a field as a wish to send the form, and a later press of a button over it', () => {
    const drawn = drawFirstScreen('en');
    input(drawn, 'userId').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(drawn.getAttribute(FIRST_SCREEN.pressedAttribute)).toBe('');
    input(drawn, 'userId').dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    expect(drawn.getAttribute(FIRST_SCREEN.pressedAttribute)).toBe('');
    drawn.querySelector<HTMLElement>('button[aria-label="Show password"] svg')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(drawn.getAttribute(FIRST_SCREEN.pressedAttribute)).toBe('Show password');
  });

  it('reads a pressed button\'s label by one rule in the page and in the app: an empty aria-label counts as none', () => {
    const drawn = drawFirstScreen('en');
    const labelled = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Text' });
    labelled.setAttribute('aria-label', 'Label');
    const emptyLabel = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Its text' });
    emptyLabel.setAttribute('aria-label', '');
    drawn.querySelector('form')!.append(labelled, emptyLabel);
    for (const [button, label] of [[labelled, 'Label'], [emptyLabel, 'Its text']] as const) {
      button.click();
      expect(drawn.getAttribute(FIRST_SCREEN.pressedAttribute)).toBe(label);
      expect(buttonLabel(button)).toBe(label);
    }
  });

  it('forgets a press the user typed after: only a last action is done again', async () => {
    const drawn = drawFirstScreen('en');
    drawn.querySelector<HTMLElement>('button.dv-button')!.click();
    expect(drawn.getAttribute(FIRST_SCREEN.pressedAttribute)).toBe('Log in');
    const userId = input(drawn, 'userId');
    userId.value = '12345678Z';
    userId.dispatchEvent(new Event('input', { bubbles: true }));
    expect(drawn.hasAttribute(FIRST_SCREEN.pressedAttribute)).toBe(false);

    const { container, router } = renderApp('/login');
    await waitFor(() => expect(document.getElementById(FIRST_SCREEN.element)).toBeNull());
    expect(input(container, 'userId')).toHaveValue('12345678Z');
    // Nothing was sent: the form shows no check's outcome and the screen stays.
    expect(container.querySelector('[aria-invalid="true"]')).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('goes away when the app shows another screen, and the heading takes the focus as on any screen', async () => {
    drawFirstScreen('en');
    renderApp('/signUp');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Open your Divilo account' });
    await waitFor(() => expect(document.getElementById(FIRST_SCREEN.element)).toBeNull());
    await waitFor(() => expect(heading).toHaveFocus());
  });
});
