import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { resumePath } from './app/guards';
import { createAppRouter } from './app/router';
import { initialStateFromBrowser, makeStore } from './app/store';
import { loadRuntimeConfig } from './config';
import { detectLocale } from './i18n/locale';
import './styles/global.css';

async function start() {
  await loadRuntimeConfig();
  const locale = detectLocale(window.location.search, navigator.language);
  const preloaded = initialStateFromBrowser(locale);
  const resumeTo = resumePath(preloaded.session?.currentPage ?? null, window.location);
  if (resumeTo) window.history.replaceState(null, '', resumeTo);

  // The router needs the store (its guards dispatch) and listeners need the router to navigate: moves asked
  // for while the router is being made (its first guards run at once) wait for it.
  let router: ReturnType<typeof createAppRouter> | undefined;
  let pending: [string, { replace?: boolean } | undefined] | undefined;
  const navigation = {
    navigate: (to: string, options?: { replace?: boolean }) => {
      if (router) void router.navigate(to, options);
      else pending = [to, options];
    },
    leaveApp: (url: string) => window.location.assign(url),
  };
  const store = makeStore(preloaded, { navigation });
  router = createAppRouter(store);
  if (pending) void router.navigate(...pending);

  createRoot(document.getElementById('app')!).render(<App store={store} router={router} />);
}

void start();
