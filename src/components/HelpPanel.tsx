import { useId } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import { PhoneIcon } from './icons';
import { phoneHref } from '../config/phoneHref';
import './base.css';
import './HelpPanel.css';

const messages = defineMessages({
  title: { id: 'components.helpPanel.title', defaultMessage: 'Need help?' },
  callUs: { id: 'components.helpPanel.callUs', defaultMessage: 'Call us on' },
  hours: { id: 'components.helpPanel.hours', defaultMessage: 'Monday to Friday 9:00 to 18:00' },
  privacy: { id: 'components.helpPanel.privacy', defaultMessage: 'Privacy policy' },
  newTab: { id: 'components.helpPanel.newTab', defaultMessage: '(opens in a new tab)' },
  diagnostics: { id: 'components.helpPanel.diagnostics', defaultMessage: 'Download diagnostics' },
  diagnosticsHint: {
    id: 'components.helpPanel.diagnosticsHint',
    defaultMessage: 'If our support team asks for it, download this file and send it to them. It contains no passwords or codes.',
  },
});

export interface HelpPanelProps {
  /** As it should be read, e.g. "900 123 456"; the link dials it without spaces. */
  supportPhone: string;
  privacyUrl: string;
  onDownloadDiagnostics?: () => void;
  /** Shown inside a dialog that has the title: no heading or landmark of its own. */
  inDialog?: boolean;
}

/** Help, in the same place on every screen (WCAG 3.2.6): phone, opening hours, privacy policy. */
export function HelpPanel({ supportPhone, privacyUrl, onDownloadDiagnostics, inDialog = false }: HelpPanelProps) {
  const intl = useIntl();
  const headingId = useId();
  const hintId = useId();
  const Frame = inDialog ? 'div' : 'aside';

  return (
    <Frame className={inDialog ? 'dv-help dv-help--dialog' : 'dv-help'} aria-labelledby={inDialog ? undefined : headingId}>
      {!inDialog && (
        <h2 id={headingId} className="dv-help__title">
          {intl.formatMessage(messages.title)}
        </h2>
      )}
      <p className="dv-help__phone">
        <PhoneIcon className="dv-help__icon" />
        <span>
          {intl.formatMessage(messages.callUs)}{' '}
          <a href={`tel:${phoneHref(supportPhone)}`} className="dv-help__phone-link">
            {supportPhone}
          </a>
        </span>
      </p>
      <p className="dv-help__hours">{intl.formatMessage(messages.hours)}</p>
      <p className="dv-help__privacy">
        <a href={privacyUrl} target="_blank" rel="noopener noreferrer">
          {intl.formatMessage(messages.privacy)}{' '}
          <span className="dv-visually-hidden">{intl.formatMessage(messages.newTab)}</span>
        </a>
      </p>
      {onDownloadDiagnostics && (
        <div className="dv-help__diagnostics">
          {/* A quiet link-like action: it is for support, and must not compete with the screen's own buttons. */}
          <button type="button" className="dv-help__quiet" aria-describedby={hintId} onClick={onDownloadDiagnostics}>
            {intl.formatMessage(messages.diagnostics)}
          </button>
          <p id={hintId} className="dv-help__hint">
            {intl.formatMessage(messages.diagnosticsHint)}
          </p>
        </div>
      )}
    </Frame>
  );
}
