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

  const navigation = {
    navigate: (to: string, _options?: { replace?: boolean }) => window.location.assign(to),
    leaveApp: (url: string) => window.location.assign(url),
  };
  const store = makeStore(preloaded, { navigation });
  const router = createAppRouter(store);
  navigation.navigate = (to: string, options?: { replace?: boolean }) => void router.navigate(to, options);

  createRoot(document.getElementById('app')!).render(<App store={store} router={router} />);
}

void start();
