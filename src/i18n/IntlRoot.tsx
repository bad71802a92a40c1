import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { FALLBACK_LOCALE, loadMessages, type Locale, type Messages } from './locale';

interface Props {
  locale: Locale;
  children: ReactNode;
  /** Shown until the first locale file has arrived. */
  fallback?: ReactNode;
}

/** Provides react-intl with the locale file of the chosen language, fetched when the language changes. */
export function IntlRoot({ locale, children, fallback = null }: Props) {
  const [loaded, setLoaded] = useState<{ locale: Locale; messages: Messages } | null>(null);

  useEffect(() => {
    let current = true;
    loadMessages(locale)
      .catch(() => (locale === FALLBACK_LOCALE ? {} : loadMessages(FALLBACK_LOCALE)))
      .catch(() => ({}))
      .then((messages) => {
        if (current) setLoaded({ locale, messages });
      });
    return () => {
      current = false;
    };
  }, [locale]);

  if (!loaded) return <>{fallback}</>;
  return (
    <IntlProvider locale={loaded.locale} messages={loaded.messages} defaultLocale="en">
      {children}
    </IntlProvider>
  );
}
