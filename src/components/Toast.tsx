import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import { CloseButton } from './CloseButton';
import { CheckIcon, ErrorIcon, InfoIcon } from './icons';
import './Toast.css';

const messages = defineMessages({
  close: { id: 'components.toast.close', defaultMessage: 'Close notification' },
});

export type ToastKind = 'error' | 'info' | 'success';

export interface ToastProps {
  /** What to say; the toast shows while this is set. A new message starts a new countdown. */
  message: ReactNode | null;
  kind?: ToastKind;
  onClose: () => void;
  /** Closes by itself after this long; 0 keeps it until closed. */
  autoCloseMs?: number;
}

const ICONS = { error: ErrorIcon, info: InfoIcon, success: CheckIcon } as const;

/**
 * A short message at the edge of the screen. It closes by itself after `autoCloseMs`, but not while the
 * pointer is over it or focus is inside it (WCAG 2.2.1): the countdown starts again when they leave.
 */
export function Toast({ message, kind = 'info', onClose, autoCloseMs = 5000 }: ToastProps) {
  const visible = message !== null && message !== undefined && message !== false && message !== '';
  if (!visible) return null;
  return <ShownToast message={message} kind={kind} onClose={onClose} autoCloseMs={autoCloseMs} />;
}

function ShownToast({ message, kind, onClose, autoCloseMs }: Required<ToastProps>) {
  const intl = useIntl();
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const close = useEffectEvent(() => onClose());
  const paused = hovered || focused;

  useEffect(() => {
    if (paused || autoCloseMs <= 0) return;
    const timer = setTimeout(() => close(), autoCloseMs);
    return () => clearTimeout(timer);
  }, [message, paused, autoCloseMs]);

  const Icon = ICONS[kind];
  return (
    <div
      className={`dv-toast dv-toast--${kind}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <Icon className="dv-toast__icon" />
      {/* Errors interrupt (alert); the rest waits its turn (status). */}
      <div className="dv-toast__message" role={kind === 'error' ? 'alert' : 'status'}>
        {message}
      </div>
      <CloseButton className="dv-toast__close" label={intl.formatMessage(messages.close)} onClick={onClose} />
    </div>
  );
}
