import { useEffect, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { phoneHref } from '../../../components';
import { getRuntimeConfig } from '../../../config';
import { describeMessages } from '../../../i18n/messages';
import { carryQuery } from '../../../routing/query';
import { entityLetterOf } from '../../../validation/onboarding';
import { formActions } from '../../../state/formSlice';
import { useSavedAnswers } from '../savedApplication';
import { applicationClosed, selectClosedApplication, sessionCleared, type ClosedApplication } from '../../../state/sessionSlice';
import { StepLayout } from '../StepLayout';

const messages = describeMessages({
  existsText: {
    id: 'onboarding.already-exists.text',
    defaultMessage: 'The ID document or the e-mail you gave already belongs to a Divilo account, or to an application we are reviewing.',
  },
  existsLogin: { id: 'onboarding.already-exists.login', defaultMessage: 'Log in to your account' },
  existsRecover: { id: 'onboarding.already-exists.recover', defaultMessage: 'I forgot my password' },
  support: { id: 'onboarding.outcome.support', defaultMessage: 'If you think this is a mistake, call us on <phone></phone>.' },
  forbiddenText: {
    id: 'onboarding.forbidden-user.text',
    defaultMessage: 'For now Divilo can only open accounts for adults who live in Spain. Thank you for your interest.',
  },
  companyError: {
    id: 'onboarding.company-error.text',
    defaultMessage: 'Divilo accounts are for companies that run a business: limited and public limited companies, partnerships, cooperatives and civil companies.',
  },
  companyErrorWhy: {
    id: 'onboarding.company-error.why',
    defaultMessage:
      '{entity, select, E {A community of property has no legal personality of its own: its members can open accounts as self-employed.} G {Associations and foundations need a non-profit account, which Divilo does not offer yet.} H {Communities of owners need an account for their community, which Divilo does not offer.} N {Foreign entities open their account with a bank of their own country or through a permanent establishment in Spain.} P {Local councils and public bodies work with banks through public tenders.} Q {Public bodies work with banks through public tenders.} R {Religious bodies need an account Divilo does not offer yet.} S {Public administrations work with banks through public tenders.} U {Temporary business unions (UTE) need an account Divilo does not offer yet.} W {Permanent establishments of non-resident entities need checks Divilo cannot do online yet.} other {Divilo cannot open an account for this kind of entity online.}}',
  },
  // The reason above already says the members can: this is the way there, each with their own DNI or NIE.
  membersLink: { id: 'onboarding.company-error.membersLink', defaultMessage: 'Open an account as self-employed' },
  welcomeText: { id: 'onboarding.welcome.text', defaultMessage: 'Your contract is signed and your application is with our team.' },
  welcomeNext: {
    id: 'onboarding.welcome.next',
    defaultMessage: 'We review every application, usually within one working day. We will e-mail you as soon as your account is open; then log in with your ID document number, your password and a code by SMS.',
  },
  welcomeLogin: { id: 'onboarding.welcome.login', defaultMessage: 'Go to the login page' },
});

/**
 * Pages that end the journey forget the onboarding session and the form: the browser keeps nothing of the
 * application, and /signUp afterwards starts afresh instead of resuming this page.
 */
function useJourneyEnded() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(sessionCleared());
    dispatch(formActions.formReset());
  }, [dispatch]);
}

/**
 * The refusal page of a closed application: the journey ends as on the other ends, but the page and the entity
 * it names are remembered, so a reload or a language switch shows the same explanation (the server keeps the
 * application closed, and the same e-mail and ID lead back here from any device).
 */
function useApplicationClosed(page: ClosedApplication['page']): ClosedApplication {
  const dispatch = useAppDispatch();
  const remembered = useAppSelector(selectClosedApplication);
  const { cif } = useSavedAnswers();
  const [closed] = useState<ClosedApplication>(() =>
    remembered?.page === page && !cif ? remembered : { page, entity: page === 'company-error' ? entityLetterOf(cif) : '' },
  );
  useEffect(() => {
    dispatch(applicationClosed(closed));
    dispatch(sessionCleared());
    dispatch(formActions.formReset());
  }, [dispatch, closed]);
  return closed;
}

function SupportLine() {
  const intl = useIntl();
  const phone = getRuntimeConfig().supportPhone;
  return (
    <p>
      {intl.formatMessage(messages.support, {
        phone: () => <a href={`tel:${phoneHref(phone)}`}>{phone}</a>,
      }) as ReactNode}
    </p>
  );
}

/** /already-exists: the ID or the e-mail is a customer's (or in review); log in or recover the password. */
export function AlreadyExistsScreen() {
  const intl = useIntl();
  useJourneyEnded();
  const location = useLocation();
  return (
    <StepLayout step="already-exists" back={false}>
      <div className="dv-outcome">
        <p>{intl.formatMessage(messages.existsText)}</p>
        <p>
          <Link to={carryQuery('/login', location.search)}>{intl.formatMessage(messages.existsLogin)}</Link>
        </p>
        <p>
          <Link to={carryQuery('/recover-password/init', location.search)}>{intl.formatMessage(messages.existsRecover)}</Link>
        </p>
        <SupportLine />
      </div>
    </StepLayout>
  );
}

/** /forbidden-user: the bank cannot serve this applicant (residence outside Spain, under age). */
export function ForbiddenUserScreen() {
  const intl = useIntl();
  useApplicationClosed('forbidden-user');
  return (
    <StepLayout step="forbidden-user" back={false}>
      <div className="dv-outcome">
        <p>{intl.formatMessage(messages.forbiddenText)}</p>
        <SupportLine />
      </div>
    </StepLayout>
  );
}

/** Why each entity type the bank does not serve is refused (docs/onboarding.md), by the CIF's first letter. */
const REFUSED_ENTITIES = ['E', 'G', 'H', 'N', 'P', 'Q', 'R', 'S', 'U', 'V', 'W'] as const;

/** /company-error: the company is of a kind the bank does not serve; why, and who to call. */
export function CompanyErrorScreen() {
  const intl = useIntl();
  const letter = useApplicationClosed('company-error').entity;
  const location = useLocation();
  const known = (REFUSED_ENTITIES as readonly string[]).includes(letter);
  return (
    <StepLayout step="company-error" back={false}>
      <div className="dv-outcome">
        <p>{intl.formatMessage(messages.companyError)}</p>
        {known && <p>{intl.formatMessage(messages.companyErrorWhy, { entity: letter })}</p>}
        {letter === 'E' && (
          <p>
            <Link to={carryQuery('/signUp', location.search)}>{intl.formatMessage(messages.membersLink)}</Link>
          </p>
        )}
        <SupportLine />
      </div>
    </StepLayout>
  );
}

/** /welcome: the end of the journey, and what happens next. */
export function WelcomeScreen() {
  const intl = useIntl();
  useJourneyEnded();
  return (
    <StepLayout step="welcome" back={false}>
      <div className="dv-outcome">
        <p>{intl.formatMessage(messages.welcomeText)}</p>
        <p>{intl.formatMessage(messages.welcomeNext)}</p>
        <p>
          <Link to="/login">{intl.formatMessage(messages.welcomeLogin)}</Link>
        </p>
      </div>
    </StepLayout>
  );
}
