import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { describeMessages } from '../../i18n/messages';
import { carryQuery } from '../../routing/query';
import { LoadingButton } from '../../components';
import { CheckIcon } from '../../components/icons';
import { RouteTitle } from '../../routing/RouteTitle';
import type { RouteName } from '../../routing/routes';
import { flowAnswersOf, isStep, previousStep, progressOf, type SectionId } from '../../onboarding/flow';
import '../../components/base.css';
import './signup.css';
import { useRequestedChanges, useSavedAnswers } from './savedApplication';

const messages = describeMessages({
  back: { id: 'onboarding.back', defaultMessage: 'Back' },
  progress: { id: 'onboarding.progress', defaultMessage: 'Step {number} of {total}' },
  progressNoTotal: { id: 'onboarding.progress.noTotal', defaultMessage: 'Step {number}' },
  progressLabel: { id: 'onboarding.progress.label', defaultMessage: 'Your progress' },
  sectionDone: { id: 'onboarding.progress.done', defaultMessage: '{section} (done)' },
  sectionCurrent: { id: 'onboarding.progress.current', defaultMessage: '{section} (current)' },
  you: { id: 'onboarding.section.you', defaultMessage: 'You' },
  business: { id: 'onboarding.section.business', defaultMessage: 'Your business' },
  security: { id: 'onboarding.section.security', defaultMessage: 'Security' },
  contract: { id: 'onboarding.section.contract', defaultMessage: 'Contract' },
  requestedTitle: { id: 'onboarding.requested.title', defaultMessage: 'Divilo asked you to check this step' },
  requestedSign: { id: 'onboarding.requested.sign', defaultMessage: 'You changed what Divilo asked for: sign the contract again to send it.' },
});

/**
 * What the bank asked, on the steps it reopened after the applicant signed (their own words, as e-mailed), and on
 * the contract a line saying it is to be signed again.
 */
function RequestedChanges({ step }: { step: RouteName }) {
  const intl = useIntl();
  const requested = useRequestedChanges();
  if (!requested) return null;
  if (step === 'docu-sign') return <p className="dv-requested">{intl.formatMessage(messages.requestedSign)}</p>;
  if (!requested.steps.includes(step)) return null;
  return (
    <div className="dv-requested" role="note" aria-labelledby={`${step}-requested`}>
      <p className="dv-requested__title" id={`${step}-requested`}>
        {intl.formatMessage(messages.requestedTitle)}
      </p>
      <p className="dv-requested__text">{requested.text}</p>
    </div>
  );
}

/** The sections of this applicant's journey, the current one marked, and "Step n of m". */
function Progress({ step }: { step: RouteName }) {
  const intl = useIntl();
  const form = useSavedAnswers();
  if (!isStep(step) || step === 'welcome') return null;
  const { number, total, section, sections } = progressOf(step, flowAnswersOf(form, form.personType));
  const current = sections.indexOf(section);
  const name = (id: SectionId) => intl.formatMessage(messages[id]);
  return (
    <nav className="dv-progress" aria-label={intl.formatMessage(messages.progressLabel)}>
      {/* The number of steps depends on the path (self-employed or company): no total, and no bar, until it is chosen. */}
      <p className="dv-progress__count">{form.personType ? intl.formatMessage(messages.progress, { number, total }) : intl.formatMessage(messages.progressNoTotal, { number })}</p>
      {form.personType && (
        <div className="dv-progress__bar" aria-hidden="true">
          <span style={{ width: `${Math.round((number / total) * 100)}%` }} />
        </div>
      )}
      <ol className="dv-progress__sections">
        {sections.map((id, index) => (
          <li key={id} className={index < current ? 'dv-progress__done' : index === current ? 'dv-progress__current' : undefined} aria-current={index === current ? 'step' : undefined}>
            {index < current ? (
              // Seen as a tick and the name; heard as "You (done)".
              <>
                <CheckIcon className="dv-progress__check" aria-hidden="true" />
                <span aria-hidden="true">{name(id)}</span>
                <span className="dv-visually-hidden">{intl.formatMessage(messages.sectionDone, { section: name(id) })}</span>
              </>
            ) : index === current ? (
              <span>{name(id)}</span>
            ) : (
              name(id)
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

interface StepLayoutProps {
  step: RouteName;
  /** A line under the title: what the step is for. */
  lead?: ReactNode;
  children: ReactNode;
  /** Outcome pages and the first step have no Back. */
  back?: boolean;
}

/** The frame of every wizard page: Back, the progress, the title (focused on arrival), a lead and the form. */
export function StepLayout({ step, lead, children, back = true }: StepLayoutProps) {
  const intl = useIntl();
  const location = useLocation();
  const form = useSavedAnswers();
  const previous = back && isStep(step) ? previousStep(step, flowAnswersOf(form, form.personType)) : undefined;
  return (
    <section className="dv-step" aria-labelledby={`${step}-title`}>
      <div className="dv-step__top">
        {previous && (
          <Link className="dv-step__back" to={carryQuery(previous === 'signUp' ? '/signUp' : `/${previous}`, location.search)}>
            <span aria-hidden="true">←</span> {intl.formatMessage(messages.back)}
          </Link>
        )}
        <Progress step={step} />
      </div>
      <RouteTitle name={step} id={`${step}-title`} />
      {lead && <p className="dv-step__lead">{lead}</p>}
      <RequestedChanges step={step} />
      {children}
    </section>
  );
}

const actionMessages = describeMessages({
  continue: { id: 'onboarding.continue', defaultMessage: 'Continue' },
});

/** The step's main action, at the end of its form. */
export function ContinueButton({ loading, label, disabled = false }: { loading: boolean; label?: string; disabled?: boolean }) {
  const intl = useIntl();
  return (
    <div className="dv-step__actions">
      <LoadingButton type="submit" loading={loading} disabled={disabled}>
        {label ?? intl.formatMessage(actionMessages.continue)}
      </LoadingButton>
    </div>
  );
}
