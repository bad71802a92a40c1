import { useMemo } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { selectLocale } from '../features/ui/uiSlice';
import { IntlRoot } from './IntlRoot';
import { useAppSelector } from './hooks';
import type { AppStore } from './store';

type AppRouter = Parameters<typeof RouterProvider>[0]['router'];

function LocalizedRouter({ router }: { router: AppRouter }) {
  const locale = useAppSelector(selectLocale);
  return (
    <IntlRoot locale={locale}>
      <RouterProvider router={router} />
    </IntlRoot>
  );
}

/** The providers, outermost first: store, persisted form, translations, routes. */
export function App({ store, router }: { store: AppStore; router: AppRouter }) {
  const content = useMemo(() => <LocalizedRouter router={router} />, [router]);
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
