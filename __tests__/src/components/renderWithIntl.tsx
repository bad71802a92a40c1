import { render, type RenderOptions } from '@testing-library/react';
import userEvent, { type Options as UserEventOptions } from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import enLocale from '../../../locales/en.json';
import esLocale from '../../../locales/es.json';
import enComponents from './messages.en.json';
import esComponents from './messages.es.json';

export type TestLocale = 'es' | 'en';

// The components' texts as delivered for the locale files; what the real locale files say wins.
const catalogs: Record<TestLocale, Record<string, string>> = {
  en: { ...enComponents, ...(enLocale as Record<string, string>) },
  es: { ...esComponents, ...(esLocale as Record<string, string>) },
};

interface Options extends Omit<RenderOptions, 'wrapper'> {
  locale?: TestLocale;
  /** Extra messages, e.g. the error ids a GlobalModal is given. */
  messages?: Record<string, string>;
  user?: UserEventOptions;
}

/** Renders inside react-intl with the real texts; a message id without a text fails the test. */
export function renderWithIntl(ui: ReactElement, { locale = 'es', messages = {}, user, ...options }: Options = {}) {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <IntlProvider
        locale={locale}
        defaultLocale="en"
        messages={{ ...catalogs[locale], ...messages }}
        onError={(error) => {
          throw error;
        }}
      >
        {children}
      </IntlProvider>
    );
  }
  return { user: userEvent.setup(user), ...render(ui, { wrapper: Wrapper, ...options }) };
}
