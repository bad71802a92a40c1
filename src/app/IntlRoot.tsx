import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { StartupError } from './StartupError';
import { FALLBACK_LOCALE, loadedMessages, loadMessages, onMessagesArrived, type Locale, type Messages } from '../i18n/locale';

interface Props {
  locale: Locale;
  children: ReactNode;
  /** Shown until the first locale file has arrived. */
  fallback?: ReactNode;
}

/**
 * Provides react-intl with the locale file of the chosen language, fetched when the language changes; a catalog
 * already here (the one the page carried, whole or the login journey's part) renders at once, and a whole one
 * replaces a part when it arrives (the router fetches it for the wizard's screens).
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
    const show = (messages: Messages) =>
      // The same catalog as the one shown keeps the state (and the tree) as it is.
      setLoaded((shown) => (shown?.locale === locale && shown.messages === messages ? shown : { locale, messages }));
    // A whole catalog arriving later (the page carried part of it) replaces the part.
    const stop = onMessagesArrived((arrivedLocale, messages) => {
      if (current && arrivedLocale === locale) show(messages);
    });
    const here = loadedMessages(locale);
    if (here) {
      show(here);
      return () => {
        current = false;
        stop();
      };
    }
    loadMessages(locale)
      .catch(() => (locale === FALLBACK_LOCALE ? Promise.reject(new Error('no texts')) : loadMessages(FALLBACK_LOCALE)))
      .then(
        (messages) => {
          if (current) show(messages);
        },
        () => {
          // Neither the language asked for nor the fallback: the app cannot speak, so it says so and offers a retry.
          if (current) setFailed(true);
        },
      );
    return () => {
      current = false;
      stop();
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
