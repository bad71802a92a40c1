import { useRef } from 'react';
import { defineMessages, useIntl, type PrimitiveType } from 'react-intl';
import { LoadingButton } from './LoadingButton';
import { Modal } from './Modal';

const messages = defineMessages({
  title: { id: 'components.globalModal.title', defaultMessage: 'Notice' },
  accept: { id: 'components.globalModal.accept', defaultMessage: 'Accept' },
  genericError: { id: 'components.globalModal.genericError', defaultMessage: 'Something went wrong. Please try again.' },
});

export interface GlobalModalProps {
  /** The id of the message to show (e.g. error.sessionExpired); nothing is shown while it is empty. */
  messageId?: string | null;
  values?: Record<string, PrimitiveType>;
  /** Clears the message: called by the accept button and by every other way of closing the dialog. */
  onAccept: () => void;
  container?: Element | null;
}

/** The app-wide message dialog (session expired, data not saved): one message, one accept button. */
export function GlobalModal({ messageId, values, onAccept, container }: GlobalModalProps) {
  const intl = useIntl();
  const acceptRef = useRef<HTMLButtonElement>(null);
  if (!messageId) return null;

  // An id the locale file does not know shows a generic text, never the raw id.
  const text =
    messageId in intl.messages
      ? intl.formatMessage({ id: messageId }, values)
      : intl.formatMessage(messages.genericError);

  return (
    <Modal
      open
      role="alertdialog"
      title={intl.formatMessage(messages.title)}
      onClose={onAccept}
      initialFocusRef={acceptRef}
      container={container}
      actions={
        <LoadingButton ref={acceptRef} onClick={onAccept}>
          {intl.formatMessage(messages.accept)}
        </LoadingButton>
      }
    >
      <p>{text}</p>
    </Modal>
  );
}
