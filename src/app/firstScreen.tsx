import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router';
import { HelpPanel, LanguageSelector, Layout } from '../components';
import { setRuntimeConfig, type RuntimeConfig } from '../config';
import { FIRST_SCREEN } from '../config/firstPage';
import { LoginScreen } from '../features/login/LoginScreen';
import type { Locale, Messages } from '../i18n/locale';
import { CaptchaProvider } from '../services/captcha';
import { makeStore } from './store';
import { DrawnBeforeStart } from '../routing/firstScreen';

const nothing = () => undefined;

const { supportPhone, privacyUrl } = FIRST_SCREEN.placeholders;

/** What the login screen reads of the runtime configuration, the server's values left as placeholders. */
const CONFIG: RuntimeConfig = {
  apiBaseUrl: '/api',
  mainAppUrl: '/app',
  supportPhone,
  legalLinks: { privacy: privacyUrl, precontract: '', biometrics: '', microbusinesses: '', companies: '', selfEmployed: '' },
  identity: { region: '', userPoolId: '', clientId: '', identityPoolId: '' },
  storage: { region: '', bucket: '', maxDocumentBytes: 0 },
  captcha: { provider: 'altcha' },
  sessionWarningSeconds: 0,
  smsCountries: [],
};

/**
 * The login screen as the page draws it before the app's scripts have run (`npm run build` writes one per
 * language, scripts/renderFirstScreen.tsx): the app's own components in the frame AppShell gives them, with
 * FIRST_SCREEN's placeholders where the runtime configuration's values go (the server fills them in). Drawn
 * with DrawnBeforeStart, so the form cannot send itself; its controls do nothing until the app takes it over.
 */
export function renderFirstLoginScreen(locale: Locale, messages: Messages): string {
  setRuntimeConfig(CONFIG);
  const store = makeStore(undefined, { persist: false, navigation: { navigate: nothing, leaveApp: nothing } });
  const help = { supportPhone, privacyUrl, onDownloadDiagnostics: nothing };
  return renderToStaticMarkup(
    <DrawnBeforeStart.Provider value={true}>
      <Provider store={store}>
        <IntlProvider locale={locale} messages={messages} defaultLocale="en">
          <StaticRouter location="/login">
            <Layout languageSelector={<LanguageSelector locale={locale} onChange={nothing} />} helpPanel={<HelpPanel {...help} />} helpSheet={<HelpPanel {...help} inDialog />}>
              <CaptchaProvider>
                <LoginScreen />
              </CaptchaProvider>
            </Layout>
          </StaticRouter>
        </IntlProvider>
      </Provider>
    </DrawnBeforeStart.Provider>,
  );
}
