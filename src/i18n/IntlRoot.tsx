import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { StartupError } from '../app/StartupError';
import { FALLBACK_LOCALE, loadedMessages, loadMessages, type Locale, type Messages } from './locale';

interface Props {
  locale: Locale;
  children: ReactNode;
  /** Shown until the first locale file has arrived. */
  fallback?: ReactNode;
}

/**
 * Provides react-intl with the locale file of the chosen language, fetched when the language changes; a catalog
 * already here (the one the page carried) renders at once.
 */
export function IntlRoot({ locale, children, fallback = null }: Props) {
  const [loaded, setLoaded] = useState<{ locale: Locale; messages: Messages } | null>(() => {
    const messages = loadedMessages(locale);
    return messages ? { locale, messages } : null;
  });
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    loadMessages(locale)
      .catch(() => (locale === FALLBACK_LOCALE ? Promise.reject(new Error('no texts')) : loadMessages(FALLBACK_LOCALE)))
      .then(
        (messages) => {
          // The same catalog as the one shown keeps the state (and the tree) as it is.
          if (current) setLoaded((shown) => (shown?.locale === locale && shown.messages === messages ? shown : { locale, messages }));
        },
        () => {
          // Neither the language asked for nor the fallback: the app cannot speak, so it says so and offers a retry.
          if (current) setFailed(true);
        },
      );
    return () => {
      current = false;
    };
  }, [locale, attempt]);

  if (failed && !loaded) {
    return (
      <StartupError
        locale={locale}
        onRetry={() => {
          setFailed(false);
          setAttempt((count) => count + 1);
        }}
      />
    );
  }
  if (!loaded) return <>{fallback}</>;
  return (
    <IntlProvider locale={loaded.locale} messages={loaded.messages} defaultLocale="en">
      {children}
    </IntlProvider>
  );
}
