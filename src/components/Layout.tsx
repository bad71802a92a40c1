import type { ReactNode } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import './base.css';
import './Layout.css';

const messages = defineMessages({
  productName: { id: 'components.layout.productName', defaultMessage: 'Divilo' },
  skipToContent: { id: 'components.layout.skipToContent', defaultMessage: 'Skip to main content' },
});

export interface LayoutProps {
  children?: ReactNode;
  /** Shown at the header's end (the LanguageSelector). */
  languageSelector?: ReactNode;
  /** Shown after the screen's content on every screen, in the same place (the HelpPanel). */
  helpPanel?: ReactNode;
}

/**
 * The frame of every screen: skip link, header with the product name and the language selector, the screen
 * in <main id="main">, then the help panel. Phone first: one column, help under the screen; two columns on
 * wide screens, help beside it.
 */
export function Layout({ children, languageSelector, helpPanel }: LayoutProps) {
  const intl = useIntl();
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
        {languageSelector}
      </header>
      <div className="dv-layout__body">
        {/* Focusable so the skip link moves keyboard focus, not only the scroll position. */}
        <main id="main" tabIndex={-1} className="dv-layout__main">
          {children}
        </main>
        {helpPanel && <div className="dv-layout__help">{helpPanel}</div>}
      </div>
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
