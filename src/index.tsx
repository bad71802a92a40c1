import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { StartupError } from './app/StartupError';
import { resumePath } from './app/guards';
import { createAppRouter } from './app/router';
import { initialStateFromBrowser, makeStore } from './app/store';
import { loadRuntimeConfig } from './config';
import { detectLocale, localeFromQuery, shareLocale, storeLocale } from './i18n/locale';
import './styles/fonts.css';
import './styles/global.css';

async function start() {
  const locale = detectLocale(window.location.search, navigator.language);
  try {
    await loadRuntimeConfig();
  } catch {
    // Not a blank page: what went wrong, in the page's language, and a way to try again.
    createRoot(document.getElementById('app')!).render(<StartupError locale={locale} />);
    return;
  }
  // `?lang=` is a choice like the selector's: kept, so it survives login, /app and logout.
  if (localeFromQuery(window.location.search)) storeLocale(locale);
  else shareLocale(locale);
  const preloaded = initialStateFromBrowser(locale);
  const resumeTo = resumePath(preloaded.session?.currentPage ?? null, window.location);
  if (resumeTo) window.history.replaceState(null, '', resumeTo);

  // The router needs the store (its guards dispatch) and listeners need the router to navigate: moves asked
  // for while the router is being made (its first guards run at once) wait for it.
  const built: { router?: ReturnType<typeof createAppRouter>; pending?: [string, { replace?: boolean; state?: unknown } | undefined] } = {};
  const navigation = {
    navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => {
      if (built.router) void built.router.navigate(to, options);
      else built.pending = [to, options];
    },
    leaveApp: (url: string) => window.location.assign(url),
  };
  const store = makeStore(preloaded, { navigation });
  const router = createAppRouter(store);
  built.router = router;
  if (built.pending) void router.navigate(...built.pending);

  createRoot(document.getElementById('app')!).render(<App store={store} router={router} />);
}

void start();
