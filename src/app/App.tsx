import { useMemo } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter, type NavigateFunction } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { selectLocale } from '../state/uiSlice';
import { IntlRoot } from './IntlRoot';
import { useAppSelector } from './hooks';
import { AppRoutes, type RouteScreens } from './router';
import type { AppStore } from './store';

interface Props {
  store: AppStore;
  screens: RouteScreens;
  /** Given the router's navigate, for the store's listeners. */
  onNavigator: (navigate: NavigateFunction) => void;
}

function LocalizedRouter({ screens, onNavigator }: Omit<Props, 'store'>) {
  const locale = useAppSelector(selectLocale);
  return (
    <IntlRoot locale={locale}>
      <BrowserRouter>
        <AppRoutes screens={screens} onNavigator={onNavigator} />
      </BrowserRouter>
    </IntlRoot>
  );
}

/** The providers, outermost first: store, persisted form, translations, routes. */
export function App({ store, screens, onNavigator }: Props) {
  const content = useMemo(() => <LocalizedRouter screens={screens} onNavigator={onNavigator} />, [screens, onNavigator]);
  return (
    <Provider store={store}>
      {store.persistor ? (
        <PersistGate persistor={store.persistor} loading={null}>
          {content}
        </PersistGate>
      ) : (
        content
      )}
    </Provider>
  );
}
