import { useEffect } from 'react';
import { dismissFirstScreen } from '../routing/firstScreen';
import '../components/base.css';
import '../components/LoadingButton.css';

/**
 * What the page shows when it cannot start: the runtime configuration, the texts or a part of the app did not
 * load. It cannot count on the locale files (they may be what failed), so its few words are here, in both
 * languages; the language is the page's (?lang=, the stored choice, the browser's).
 */
const TEXTS = {
  es: { title: 'No hemos podido cargar Divilo', body: 'Comprueba tu conexión e inténtalo de nuevo. Si sigue sin cargar, llámanos.', retry: 'Reintentar' },
  en: { title: "We couldn't load Divilo", body: 'Check your connection and try again. If it still does not load, call us.', retry: 'Try again' },
} as const;

export function StartupError({ locale, onRetry = () => window.location.reload() }: { locale: string; onRetry?: () => void }) {
  const text = TEXTS[locale === 'es' ? 'es' : 'en'];
  // Not the login screen the page drew before the app ran: this is what the page is now.
  useEffect(() => dismissFirstScreen(), []);
  return (
    <main className="dv-startup-error" lang={locale === 'es' ? 'es' : 'en'}>
      <div role="alert">
        <h1>{text.title}</h1>
        <p>{text.body}</p>
      </div>
      <button type="button" className="dv-button dv-button--blue" onClick={onRetry}>
        {text.retry}
      </button>
    </main>
  );
}
