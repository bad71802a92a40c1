import { createRoot, type Root } from 'react-dom/client';
import type { NavigateFunction } from 'react-router';
import { loadRuntimeConfig } from '../config';
import { adoptInlinedMessages, detectLocale, localeFromQuery, shareLocale, storeLocale } from '../i18n/locale';
import { App } from './App';
import { StartupError } from './StartupError';
import { resumePath } from './guards';
import { browserAreaNeeds, lazyScreens } from './router';
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

  // The routes need the store (their guards read it) and listeners need the router to navigate: moves asked for
  // before the router is there wait for it.
  const built: { navigate?: NavigateFunction; pending?: [string, { replace?: boolean; state?: unknown } | undefined] } = {};
  const navigation = {
    navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => {
      if (built.navigate) void built.navigate(to, options);
      else built.pending = [to, options];
    },
    leaveApp: (url: string) => window.location.assign(url),
  };
  const store = makeStore(preloaded, { navigation });
  const onNavigator = (navigate: NavigateFunction) => {
    built.navigate = navigate;
    const pending = built.pending;
    built.pending = undefined;
    if (pending) void navigate(...pending);
  };

  root.render(<App store={store} screens={lazyScreens(browserAreaNeeds(store))} onNavigator={onNavigator} />);
  return root;
}
