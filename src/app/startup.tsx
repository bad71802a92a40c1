import { createRoot, type Root } from 'react-dom/client';
import { loadRuntimeConfig } from '../config';
import { adoptInlinedMessages, detectLocale, localeFromQuery, shareLocale, storeLocale } from '../i18n/locale';
import { App } from './App';
import { StartupError } from './StartupError';
import { resumePath } from './guards';
import { createAppRouter } from './router';
import { initialStateFromBrowser, makeStore } from './store';

/**
 * Starts the app in `container`: the configuration and the texts the server wrote into the page (fetched
 * when the page has none), the language, the store, the router. A configuration that cannot be had shows
 * StartupError instead of a blank page.
 */
export async function startApp(container: HTMLElement): Promise<Root> {
  const root = createRoot(container);
  const locale = detectLocale(window.location.search, navigator.language);
  adoptInlinedMessages();
  try {
    await loadRuntimeConfig();
  } catch {
    // Not a blank page: what went wrong, in the page's language, and a way to try again.
    root.render(<StartupError locale={locale} />);
    return root;
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

  root.render(<App store={store} router={router} />);
  return root;
}
