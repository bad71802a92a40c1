import {
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { defineMessages, useIntl } from 'react-intl';
import { CloseButton } from './CloseButton';
import './Modal.css';

const messages = defineMessages({
  close: { id: 'components.modal.close', defaultMessage: 'Close' },
});

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

// Open modals, innermost last: only the top one answers Escape.
const openModals: symbol[] = [];

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  /** Buttons under the body (outside the text that describes an alertdialog). */
  actions?: ReactNode;
  /** alertdialog for messages that need an answer; its body then also describes the dialog. */
  role?: 'dialog' | 'alertdialog';
  /** Where the dialog is rendered; by default the app container (#app), else the document body. */
  container?: Element | null;
  /** What takes focus on open; by default the dialog itself, so its title is read first. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  className?: string;
}

/**
 * A modal dialog over the app: closes on a backdrop click, on its close button and on Escape; keeps focus
 * inside while open, makes the page behind it inert, and gives focus back to what opened it.
 */
export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return <OpenModal {...props} />;
}

function OpenModal({ onClose, title, children, actions, role = 'dialog', container, initialFocusRef, className }: ModalProps) {
  const intl = useIntl();
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  const pressStartedOnBackdrop = useRef(false);
  const close = useEffectEvent(() => onClose());
  const focusInitial = useEffectEvent(() => (initialFocusRef?.current ?? dialogRef.current)?.focus());
  const target = container ?? document.getElementById('app') ?? document.body;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const madeInert = makeSiblingsInert(backdropRef.current);
    document.body.classList.add('dv-modal-open');
    focusInitial();

    const self = Symbol('modal');
    openModals.push(self);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && openModals[openModals.length - 1] === self) {
        event.preventDefault();
        close();
      }
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      openModals.splice(openModals.indexOf(self), 1);
      if (openModals.length === 0) document.body.classList.remove('dv-modal-open');
      // Inert first: an inert element cannot take focus back.
      madeInert.forEach((element) => element.removeAttribute('inert'));
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const trapTab = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusables = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusables.length === 0) {
      event.preventDefault();
      return;
    }
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    // The backdrop is a mouse convenience; keyboard users have Escape and the close button.
    <div
      ref={backdropRef}
      className="dv-modal__backdrop"
      onMouseDown={(event) => {
        pressStartedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        // A text selection dragged from inside the dialog onto the backdrop is not a click on the backdrop.
        if (event.target === event.currentTarget && pressStartedOnBackdrop.current) onClose();
        pressStartedOnBackdrop.current = false;
      }}
    >
      <div
        ref={dialogRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={role === 'alertdialog' ? bodyId : undefined}
        tabIndex={-1}
        className={['dv-modal', className].filter(Boolean).join(' ')}
        onKeyDown={trapTab}
      >
        <div className="dv-modal__header">
          <h2 id={titleId} className="dv-modal__title">
            {title}
          </h2>
          <CloseButton className="dv-modal__close" label={intl.formatMessage(messages.close)} onClick={onClose} />
        </div>
        <div id={bodyId} className="dv-modal__body">
          {children}
        </div>
        {actions && <div className="dv-modal__actions">{actions}</div>}
      </div>
    </div>,
    target,
  );
}

/** Marks everything beside the dialog inert (unreachable by focus, hidden from screen readers). */
function makeSiblingsInert(dialogRoot: HTMLElement | null): Element[] {
  const parent = dialogRoot?.parentElement;
  if (!dialogRoot || !parent) return [];
  return [...parent.children].filter((element) => {
    if (element === dialogRoot || element.hasAttribute('inert') || element.tagName === 'SCRIPT') return false;
    element.setAttribute('inert', '');
    return true;
  });
}
