import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { GlobalModal, HelpPanel, LanguageSelector, Layout, Toast } from '../components';
import { getRuntimeConfig } from '../config';
import { CaptchaProvider } from '../services/captcha';
import { SessionExpiryWarning } from '../features/session/SessionExpiryWarning';
import { useGetSessionQuery } from '../features/session/sessionApi';
import { errorDismissed, selectSessionError } from '../state/sessionSlice';
import { localeChosen, selectLocale, selectToast, toastClosed } from '../state/uiSlice';
import type { Locale } from '../i18n/locale';
import { maySessionExist } from '../storage/signedInHint';
import { downloadDiagnostics } from './diagnostics';
import { useAppDispatch, useAppSelector, useAppStore } from './hooks';

/** The frame of every screen: header with the language selector, the screen, help, modal and toast. */
export function AppShell() {
  const store = useAppStore();
  const dispatch = useAppDispatch();
  const intl = useIntl();
  const location = useLocation();
  const navigate = useNavigate();
  const locale = useAppSelector(selectLocale);
  const error = useAppSelector(selectSessionError);
  const toast = useAppSelector(selectToast);
  const config = getRuntimeConfig();

  // A customer who is already signed in goes straight to the main app (not while signing out). Only a browser
  // that signed in asks: for everyone else the answer would be a 401 in the console on every page.
  const onLogout = location.pathname.toLowerCase().startsWith('/logout');
  const { data: session } = useGetSessionQuery(undefined, { skip: onLogout || !maySessionExist() });
  useEffect(() => {
    if (session?.authenticated && !onLogout) store.navigation.leaveApp(config.mainAppUrl);
  }, [session, onLogout, store, config.mainAppUrl]);

  // The page's title is each screen's own (RouteTitle); the language is the shell's.
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const chooseLocale = (next: Locale) => {
    dispatch(localeChosen(next));
    // An explicit choice outlives a ?lang= that came with the link.
    const params = new URLSearchParams(location.search);
    if (params.has('lang')) {
      params.delete('lang');
      const search = params.toString();
      navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
    }
  };

  const help = {
    supportPhone: config.supportPhone,
    privacyUrl: config.legalLinks.privacy,
    onDownloadDiagnostics: () => downloadDiagnostics(store.recorder, store.getState()),
  };

  return (
    <Layout
      languageSelector={<LanguageSelector locale={locale} onChange={chooseLocale} />}
      helpPanel={<HelpPanel {...help} />}
      helpSheet={<HelpPanel {...help} inDialog />}
    >
      <CaptchaProvider>
        <Outlet />
      </CaptchaProvider>
      <SessionExpiryWarning warningSeconds={config.sessionWarningSeconds} />
      <GlobalModal messageId={error} onAccept={() => dispatch(errorDismissed())} />
      <Toast
        message={toast ? toast.messageIds.map((id) => intl.formatMessage({ id })).join(' ') : null}
        kind={toast?.kind ?? 'error'}
        onClose={() => dispatch(toastClosed())}
      />
    </Layout>
  );
}
