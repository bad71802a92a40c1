import { useCallback, useEffect, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ExpiryWarning, LanguageSelector, Layout } from '../../components';
import { describeMessages } from '../../i18n/messages';
import { localeChosen, selectLocale } from '../../state/uiSlice';
import { selectStaffSession, staffSessionEnded, useGetConfigQuery, useGetStaffSessionQuery, useSignOutMutation, type StaffRole } from './backOfficeApi';
import './backOffice.css';

const messages = describeMessages({
  area: { id: 'backOffice.frame.area', defaultMessage: 'Back office' },
  navigation: { id: 'backOffice.frame.navigation', defaultMessage: 'Back office' },
  queue: { id: 'backOffice.frame.queue', defaultMessage: 'Applications' },
  funnel: { id: 'backOffice.frame.funnel', defaultMessage: 'Funnel' },
  templates: { id: 'backOffice.frame.templates', defaultMessage: 'Message templates' },
  signedInAs: { id: 'backOffice.frame.signedInAs', defaultMessage: 'Signed in as {username}' },
  signOut: { id: 'backOffice.frame.signOut', defaultMessage: 'Sign out' },
  checking: { id: 'backOffice.frame.checking', defaultMessage: 'Checking your session…' },
  expiring: {
    id: 'backOffice.frame.expiring',
    defaultMessage: 'For your security, your session will end in {seconds, plural, one {# second} other {# seconds}}. Anything typed and not sent yet would be lost.',
  },
  reviewer: { id: 'backOffice.role.reviewer', defaultMessage: 'Reviewer' },
  approver: { id: 'backOffice.role.approver', defaultMessage: 'Approver' },
  administrator: { id: 'backOffice.role.administrator', defaultMessage: 'Administrator' },
  compliance: { id: 'backOffice.role.compliance', defaultMessage: 'Compliance' },
});

const SIGN_IN_PATH = '/back-office';
export const QUEUE_PATH = '/back-office/queue';
const FUNNEL_PATH = '/back-office/funnel';
const TEMPLATES_PATH = '/back-office/templates';

/** The language switch of the back office: the app's language, as on every other page. */
function BackOfficeLanguage() {
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  return <LanguageSelector locale={locale} onChange={(next) => dispatch(localeChosen(next))} />;
}

/** The frame of the back office's sign-in: the product and the language. */
export function SignInFrame({ children }: { children: ReactNode }) {
  return (
    <div className="dv-bo">
      <Layout languageSelector={<BackOfficeLanguage />}>{children}</Layout>
    </div>
  );
}

/** The name of the area, over the sign-in's title: the bank's own pages, not the customers'. */
export function AreaName() {
  const intl = useIntl();
  return <p className="dv-bo__area">{intl.formatMessage(messages.area)}</p>;
}

/**
 * The frame of the back office's pages behind its session: who is signed in and their roles, the navigation, a
 * way out, the warning before an idle session ends. Without a session (none, or it ended) it goes to the sign-in,
 * which says why; the page's own content shows only once the session is known.
 */
export function BackOfficeFrame({ children }: { children: (roles: readonly StaffRole[]) => ReactNode }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Asked at every page: the answer of a session that ended since must not open the page.
  const session = useGetStaffSessionQuery(undefined, { refetchOnMountOrArgChange: true });
  const { data: config } = useGetConfigQuery();
  const { live, lastCallAt, ended } = useAppSelector(selectStaffSession);
  const [signOut, signingOut] = useSignOutMutation();

  const gone = ended !== null || (session.isError && !session.isFetching);
  useEffect(() => {
    if (gone) void navigate(SIGN_IN_PATH, { replace: true, state: { from: pathname } });
  }, [gone, navigate, pathname]);

  const leave = async () => {
    await signOut().unwrap().catch(() => undefined);
    dispatch(staffSessionEnded('signed-out'));
  };
  const expire = useCallback(() => dispatch(staffSessionEnded('idle')), [dispatch]);
  const idleSeconds = session.data?.idleSeconds ?? config?.idleSeconds;
  const expiresAt = live && lastCallAt !== null && idleSeconds !== undefined ? lastCallAt + idleSeconds * 1000 : null;
  const ready = live && session.data && !gone;

  const tools = (
    <>
      {ready && (
        <div className="dv-bo__member">
          <span className="dv-bo__member-name">{intl.formatMessage(messages.signedInAs, { username: session.data.username })}</span>
          <span className="dv-bo__member-roles">{session.data.roles.map((role) => intl.formatMessage(messages[role])).join(' · ')}</span>
        </div>
      )}
      {ready && (
        <button type="button" className="dv-bo__sign-out" onClick={() => void leave()} disabled={signingOut.isLoading}>
          {intl.formatMessage(messages.signOut)}
        </button>
      )}
      <BackOfficeLanguage />
    </>
  );

  return (
    <div className="dv-bo">
      <Layout languageSelector={tools}>
        <nav className="dv-bo__nav" aria-label={intl.formatMessage(messages.navigation)}>
          <ul>
            {[
              { path: QUEUE_PATH, label: messages.queue },
              { path: FUNNEL_PATH, label: messages.funnel },
              { path: TEMPLATES_PATH, label: messages.templates },
            ].map(({ path, label }) => (
              <li key={path}>
                <Link to={path} aria-current={pathname === path ? 'page' : undefined}>
                  {intl.formatMessage(label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {ready ? (
          children(session.data.roles)
        ) : (
          <p className="dv-bo__checking" role="status">
            {gone ? null : intl.formatMessage(messages.checking)}
          </p>
        )}
        {config && (
          <ExpiryWarning
            expiresAt={expiresAt}
            warningSeconds={config.warningSeconds}
            onContinue={async () => {
              await session.refetch();
            }}
            onExpired={expire}
            continuing={session.isFetching}
            failed={session.isError}
            body={messages.expiring}
          />
        )}
      </Layout>
    </div>
  );
}
