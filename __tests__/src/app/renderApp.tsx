import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { createAppMemoryRouter } from '../../../src/app/router';
import { makeStore, type RootState } from '../../../src/app/store';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';

const catalogs = { en: en as Record<string, string>, es: es as Record<string, string> };

/**
 * The whole app at `path`, as `index.tsx` builds it, with the locale file given directly (the jsdom page has
 * no server to fetch it from). Missing translations fail the test.
 */
export function renderApp(path: string, { state, locale = 'en' }: { state?: Partial<RootState>; locale?: 'en' | 'es' } = {}) {
  const navigation = { navigate: jest.fn(), leaveApp: jest.fn() };
  const store = makeStore({ ...state, ui: { locale, toast: null, ...state?.ui } }, { navigation, persist: false });
  const router = createAppMemoryRouter(store, path);
  navigation.navigate.mockImplementation((to: string, options?: { replace?: boolean; state?: unknown }) => void router.navigate(to, options));
  const view = render(
    <Provider store={store}>
      <IntlProvider
        locale={locale}
        messages={catalogs[locale]}
        onError={(error) => {
          throw error;
        }}
      >
        <RouterProvider router={router} />
      </IntlProvider>
    </Provider>,
  );
  return { ...view, store, router, navigation, user: userEvent.setup() };
}
