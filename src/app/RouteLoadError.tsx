import { selectLocale } from '../state/uiSlice';
import { useAppSelector } from './hooks';
import { StartupError } from './StartupError';

/** The router's error page: a screen that failed to load shows the startup error, in the page's language. */
export function RouteLoadError() {
  const locale = useAppSelector(selectLocale);
  return <StartupError locale={locale} />;
}
