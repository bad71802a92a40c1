import { useState, type ReactNode } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import { PhoneIcon } from './icons';
import { Modal } from './Modal';
import './base.css';
import './Layout.css';

const messages = defineMessages({
  productName: { id: 'components.layout.productName', defaultMessage: 'Divilo' },
  skipToContent: { id: 'components.layout.skipToContent', defaultMessage: 'Skip to main content' },
  help: { id: 'components.layout.help', defaultMessage: 'Help' },
  helpTitle: { id: 'components.layout.helpTitle', defaultMessage: 'Need help?' },
});

export interface LayoutProps {
  children?: ReactNode;
  /** Shown at the header's end (the LanguageSelector). */
  languageSelector?: ReactNode;
  /** Shown beside the screen on wide screens, in the same place on every screen (the HelpPanel). */
  helpPanel?: ReactNode;
  /** The same help for phones and tablets, in a sheet the header's Help button opens (the HelpPanel `inDialog`). */
  helpSheet?: ReactNode;
}

/**
 * The frame of every screen: skip link, header with the product name, Help and the language selector, the
 * screen in <main id="main">, and the help panel beside it on wide screens. On phones and tablets the help is
 * one tap away in the header (a sheet): under the screen, it would jump each time a screen gives way to a
 * shorter one.
 */
export function Layout({ children, languageSelector, helpPanel, helpSheet }: LayoutProps) {
  const intl = useIntl();
  const [helpOpen, setHelpOpen] = useState(false);
  return (
    <div className="dv-layout">
      <a href="#main" className="dv-layout__skip">
        {intl.formatMessage(messages.skipToContent)}
      </a>
      <header className="dv-layout__header">
        <span className="dv-logo">
          <LogoMark />
          <span className="dv-logo__text">{intl.formatMessage(messages.productName)}</span>
        </span>
        <div className="dv-layout__tools">
          {helpSheet && (
            <button type="button" className="dv-layout__help-button" aria-haspopup="dialog" onClick={() => setHelpOpen(true)}>
              <PhoneIcon aria-hidden="true" />
              <span className="dv-layout__help-label">{intl.formatMessage(messages.help)}</span>
            </button>
          )}
          {languageSelector}
        </div>
      </header>
      <div className="dv-layout__body">
        {/* Focusable so the skip link moves keyboard focus, not only the scroll position. */}
        <main id="main" tabIndex={-1} className="dv-layout__main">
          {children}
        </main>
        {helpPanel && <div className="dv-layout__help">{helpPanel}</div>}
      </div>
      <Modal open={helpOpen} onClose={() => setHelpOpen(false)} title={intl.formatMessage(messages.helpTitle)}>
        {helpSheet}
      </Modal>
    </div>
  );
}

/** The nine-cube mark next to the product name; decorative. */
function LogoMark() {
  return (
    <svg className="dv-logo__mark" viewBox="0 0 22 22" width="26" height="26" aria-hidden="true" focusable="false">
      {[0, 1, 2].flatMap((row) =>
        [0, 1, 2].map((column) => (
          <rect key={`${row}-${column}`} x={column * 8} y={row * 8} width="6" height="6" rx="1" fill="currentColor" />
        )),
      )}
    </svg>
  );
}
