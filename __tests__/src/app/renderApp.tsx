import { act, render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation, useNavigationType, type Location, type NavigateFunction, type NavigationType } from 'react-router';
import { AppRoutes, lazyScreens } from '../../../src/app/router';
import { makeStore, type RootState } from '../../../src/app/store';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';

const catalogs = { en: en as Record<string, string>, es: es as Record<string, string> };

/** What the router shows, as a test reads it: the current location and how it was reached. */
interface RouterState {
  location: Location;
  historyAction: NavigationType;
}

function RouterProbe({ onShow }: { onShow: (state: RouterState) => void }) {
  const location = useLocation();
  const historyAction = useNavigationType();
  useLayoutEffect(() => onShow({ location, historyAction }), [onShow, location, historyAction]);
  return null;
}

/**
 * The whole app at `path`, as `index.tsx` builds it, with the locale file given directly (the jsdom page has
 * no server to fetch it from). Missing translations fail the test.
 */
export function renderApp(path: string, { state, locale = 'en' }: { state?: Partial<RootState>; locale?: 'en' | 'es' } = {}) {
  const navigation = { navigate: jest.fn(), leaveApp: jest.fn() };
  const store = makeStore({ ...state, ui: { locale, toast: null, ...state?.ui } }, { navigation, persist: false });
  const routed: { navigate?: NavigateFunction } = {};
  const shown: Partial<RouterState> = {};
  const router = {
    state: shown as RouterState,
    /** A navigation as a test makes it: done when the next screen shows. */
    navigate: (to: string, options?: { replace?: boolean }) =>
      act(async () => {
        await routed.navigate!(to, options);
      }),
  };
  navigation.navigate.mockImplementation((to: string, options?: { replace?: boolean; state?: unknown }) => void routed.navigate?.(to, options));
  const view = render(
    <Provider store={store}>
      <IntlProvider
        locale={locale}
        messages={catalogs[locale]}
        onError={(error) => {
          throw error;
        }}
      >
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes screens={lazyScreens()} onNavigator={(navigate) => {
              routed.navigate = navigate;
            }} />
          <RouterProbe
            onShow={(now) => {
              Object.assign(shown, now);
            }}
          />
        </MemoryRouter>
      </IntlProvider>
    </Provider>,
  );
  return { ...view, store, router, navigation, user: userEvent.setup() };
}
