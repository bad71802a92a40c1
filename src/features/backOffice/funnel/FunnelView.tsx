import { useFormik } from 'formik';
import { useId } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { object, string } from 'yup';
import { LoadingButton, TextInput } from '../../../components';
import { useFormFields } from '../../../forms/useFormFields';
import { describeMessages } from '../../../i18n/messages';
import { rules, validateSchema, type Rule } from '../../../validation';
import { stepTitle } from '../stepTitles';
import { humanDuration } from './durations';
import './funnel.css';

export type FunnelPath = 'all' | 'freelance' | 'company';

/** The period asked for: whole days (yyyy-mm-dd), `to` included, as the staff API takes them. */
export interface FunnelPeriod {
  from: string;
  to: string;
  path: FunnelPath;
}

/** What GET /staff-api/funnel answers (docs/back-office.md, "Funnel"): `from` and `to` are instants, `to` excluded. */
export interface FunnelData {
  from: string;
  to: string;
  path: FunnelPath;
  started: number;
  steps: { step: string; reached: number; stoppedHere: number; medianSeconds: number | null }[];
  decisions: { decision: 'approved' | 'rejected'; count: number; medianWaitSeconds: number | null }[];
}

export interface FunnelViewProps {
  funnel: FunnelData | undefined;
  loading: boolean;
  /** The refusal code of the last request (INVALID_PERIOD, ROLE_REQUIRED), or any other text for another failure. */
  error?: string;
  period: FunnelPeriod;
  onPeriodChange(period: FunnelPeriod): void;
}

/** The longest period the staff API counts at once, in days (both ends included). */
const FUNNEL_MAX_DAYS = 366;
const DAY = 86_400_000;

const messages = describeMessages({
  period: { id: 'backOffice.funnel.period', defaultMessage: 'Period' },
  from: { id: 'backOffice.funnel.from', defaultMessage: 'From' },
  to: { id: 'backOffice.funnel.to', defaultMessage: 'To (included)' },
  path: { id: 'backOffice.funnel.path', defaultMessage: 'Applicants' },
  pathAll: { id: 'backOffice.funnel.path.all', defaultMessage: 'All' },
  pathFreelance: { id: 'backOffice.funnel.path.freelance', defaultMessage: 'Freelancers' },
  pathCompany: { id: 'backOffice.funnel.path.company', defaultMessage: 'Companies' },
  show: { id: 'backOffice.funnel.show', defaultMessage: 'Show' },
  invalidDate: { id: 'backOffice.funnel.invalidDate', defaultMessage: 'Enter a whole date' },
  order: { id: 'backOffice.funnel.order', defaultMessage: 'The period cannot end before it starts' },
  tooLong: { id: 'backOffice.funnel.tooLong', defaultMessage: 'A period is at most {days, number} days' },
  loading: { id: 'backOffice.funnel.loading', defaultMessage: 'Counting the applicants of the period…' },
  failed: { id: 'backOffice.funnel.failed', defaultMessage: 'The funnel could not be loaded. Try again in a moment.' },
  invalidPeriod: { id: 'backOffice.funnel.invalidPeriod', defaultMessage: 'The bank does not count this period: choose one of at most {days, number} days that ends after it starts.' },
  roleRequired: { id: 'backOffice.funnel.roleRequired', defaultMessage: 'Your role does not let you see the funnel.' },
  stepsTitle: { id: 'backOffice.funnel.stepsTitle', defaultMessage: 'How far the applicants went' },
  started: {
    id: 'backOffice.funnel.started',
    defaultMessage: '{count, plural, =0 {Nobody signed up} one {# applicant signed up} other {# applicants signed up}} from {from} to {to} ({path}).',
  },
  legendReached: { id: 'backOffice.funnel.legendReached', defaultMessage: 'Finished the step' },
  legendStopped: { id: 'backOffice.funnel.legendStopped', defaultMessage: 'Stopped on it' },
  chartRow: { id: 'backOffice.funnel.chartRow', defaultMessage: '{reached, number} finished · {stopped, number} stopped' },
  stepsCaption: { id: 'backOffice.funnel.stepsCaption', defaultMessage: 'Steps, from {from} to {to} ({path})' },
  step: { id: 'backOffice.funnel.step', defaultMessage: 'Step' },
  reached: { id: 'backOffice.funnel.reached', defaultMessage: 'Finished' },
  ofStarted: { id: 'backOffice.funnel.ofStarted', defaultMessage: '% of those who signed up' },
  stoppedHere: { id: 'backOffice.funnel.stoppedHere', defaultMessage: 'Stopped here' },
  medianTime: { id: 'backOffice.funnel.medianTime', defaultMessage: 'Median time' },
  notMeasured: { id: 'backOffice.funnel.notMeasured', defaultMessage: 'not measured' },
  decisionsTitle: { id: 'backOffice.funnel.decisionsTitle', defaultMessage: 'Decisions of the period' },
  decisionsCaption: { id: 'backOffice.funnel.decisionsCaption', defaultMessage: 'Decisions taken from {from} to {to} ({path})' },
  decision: { id: 'backOffice.funnel.decision', defaultMessage: 'Decision' },
  count: { id: 'backOffice.funnel.count', defaultMessage: 'Applications' },
  medianWait: { id: 'backOffice.funnel.medianWait', defaultMessage: 'Median wait since signing' },
  approved: { id: 'backOffice.funnel.approved', defaultMessage: 'Approved' },
  rejected: { id: 'backOffice.funnel.rejected', defaultMessage: 'Rejected' },
});

const PATH_NAMES = { all: messages.pathAll, freelance: messages.pathFreelance, company: messages.pathCompany };

/** A yyyy-mm-dd day as midnight UTC, or NaN for anything else (an impossible date included). */
function dayOf(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return NaN;
  const time = Date.parse(`${value}T00:00:00.000Z`);
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value ? NaN : time;
}

const wholeDate: Rule = { name: 'wholeDate', message: () => ({ id: messages.invalidDate.id }), test: (value) => !value || !Number.isNaN(dayOf(value)) };

// The same checks as the staff API's, so a period it would refuse is not sent.
const periodSchema = object({
  from: string().test(rules.required()).test(wholeDate),
  to: string()
    .test(rules.required())
    .test(wholeDate)
    .test({
      name: 'order',
      message: () => ({ id: messages.order.id }),
      test: (value, context) => !(dayOf(value) < dayOf((context.parent as FunnelPeriod).from)),
    })
    .test({
      name: 'tooLong',
      message: () => ({ id: messages.tooLong.id, values: { days: FUNNEL_MAX_DAYS } }),
      test: (value, context) => !(dayOf(value) - dayOf((context.parent as FunnelPeriod).from) + DAY > FUNNEL_MAX_DAYS * DAY),
    }),
});

/** The period the answer counted, in the page's language: `to` is the last day included. */
function periodWords(intl: IntlShape, funnel: FunnelData) {
  const day = (time: number) => intl.formatDate(time, { dateStyle: 'medium', timeZone: 'UTC' });
  return { from: day(Date.parse(funnel.from)), to: day(Date.parse(funnel.to) - DAY), path: intl.formatMessage(PATH_NAMES[funnel.path]) };
}

/**
 * The onboarding funnel of the back office: a period and a path to choose, then how far the applicants who
 * signed up in it went, step by step (a chart for the eye, the same numbers in a table for everyone), and the
 * decisions taken in it.
 */
export function FunnelView({ funnel, loading, error, period, onPeriodChange }: FunnelViewProps) {
  const intl = useIntl();
  const formik = useFormik<FunnelPeriod>({
    initialValues: period,
    enableReinitialize: true,
    validate: (values) => validateSchema(periodSchema, values),
    validateOnChange: false,
    onSubmit: (values) => onPeriodChange(values),
  });
  const field = useFormFields(formik, ['from', 'to']);
  const pathId = useId();

  const refusal =
    error === undefined
      ? ''
      : error === 'INVALID_PERIOD'
        ? intl.formatMessage(messages.invalidPeriod, { days: FUNNEL_MAX_DAYS })
        : error === 'ROLE_REQUIRED'
          ? intl.formatMessage(messages.roleRequired)
          : intl.formatMessage(messages.failed);

  return (
    <div className="dv-funnel">
      <form className="dv-funnel__period" noValidate onSubmit={formik.handleSubmit}>
        <fieldset className="dv-funnel__fields">
          <legend className="dv-funnel__legend">{intl.formatMessage(messages.period)}</legend>
          <TextInput type="date" label={intl.formatMessage(messages.from)} {...field('from')} />
          <TextInput type="date" label={intl.formatMessage(messages.to)} {...field('to')} />
          <div className="dv-field">
            <label className="dv-field__label" htmlFor={pathId}>
              {intl.formatMessage(messages.path)}
            </label>
            <div className="dv-field__control">
              <select id={pathId} name="path" className="dv-field__input dv-field__select" value={formik.values.path} onChange={formik.handleChange}>
                {(['all', 'freelance', 'company'] as const).map((path) => (
                  <option key={path} value={path}>
                    {intl.formatMessage(PATH_NAMES[path])}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </fieldset>
        <LoadingButton type="submit" loading={loading}>
          {intl.formatMessage(messages.show)}
        </LoadingButton>
      </form>
      <p className="dv-funnel__status" role="status">
        {loading ? intl.formatMessage(messages.loading) : ''}
      </p>
      <p className="dv-funnel__error" role="alert">
        {refusal}
      </p>
      {funnel && <FunnelResults funnel={funnel} busy={loading} />}
    </div>
  );
}

function FunnelResults({ funnel, busy }: { funnel: FunnelData; busy: boolean }) {
  const intl = useIntl();
  const id = useId();
  const words = periodWords(intl, funnel);
  const withPath = funnel.path === 'all';
  const number = (value: number) => intl.formatNumber(value);
  const share = (value: number) => (funnel.started > 0 ? intl.formatNumber(value / funnel.started, { style: 'percent', maximumFractionDigits: 1 }) : null);

  return (
    <div className="dv-funnel__results" aria-busy={busy || undefined}>
      <section aria-labelledby={`${id}-steps`}>
        <h2 id={`${id}-steps`} className="dv-funnel__title">
          {intl.formatMessage(messages.stepsTitle)}
        </h2>
        <p>{intl.formatMessage(messages.started, { count: funnel.started, ...words })}</p>
        <FunnelChart funnel={funnel} />
        <div className="dv-funnel__table-frame" role="region" aria-labelledby={`${id}-steps-caption`} tabIndex={0}>
          <table className="dv-funnel__table">
            <caption id={`${id}-steps-caption`}>{intl.formatMessage(messages.stepsCaption, words)}</caption>
            <thead>
              <tr>
                <th scope="col">{intl.formatMessage(messages.step)}</th>
                <th scope="col">{intl.formatMessage(messages.reached)}</th>
                <th scope="col">{intl.formatMessage(messages.ofStarted)}</th>
                <th scope="col">{intl.formatMessage(messages.stoppedHere)}</th>
                <th scope="col">{intl.formatMessage(messages.medianTime)}</th>
              </tr>
            </thead>
            <tbody>
              {funnel.steps.map((step) => (
                <tr key={step.step}>
                  <th scope="row">{stepTitle(intl, step.step, withPath)}</th>
                  <td>{number(step.reached)}</td>
                  <td>
                    <Measured text={share(step.reached)} />
                  </td>
                  <td>{number(step.stoppedHere)}</td>
                  <td>
                    <Measured text={step.medianSeconds === null ? null : humanDuration(intl, step.medianSeconds)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby={`${id}-decisions`}>
        <h2 id={`${id}-decisions`} className="dv-funnel__title">
          {intl.formatMessage(messages.decisionsTitle)}
        </h2>
        <div className="dv-funnel__table-frame" role="region" aria-labelledby={`${id}-decisions-caption`} tabIndex={0}>
          <table className="dv-funnel__table">
            <caption id={`${id}-decisions-caption`}>{intl.formatMessage(messages.decisionsCaption, words)}</caption>
            <thead>
              <tr>
                <th scope="col">{intl.formatMessage(messages.decision)}</th>
                <th scope="col">{intl.formatMessage(messages.count)}</th>
                <th scope="col">{intl.formatMessage(messages.medianWait)}</th>
              </tr>
            </thead>
            <tbody>
              {funnel.decisions.map((decision) => (
                <tr key={decision.decision}>
                  <th scope="row">{intl.formatMessage(messages[decision.decision])}</th>
                  <td>{number(decision.count)}</td>
                  <td>
                    <Measured text={decision.medianWaitSeconds === null ? null : humanDuration(intl, decision.medianWaitSeconds)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

/** A number, or "—" where there is none, which a screen reader reads as words. */
function Measured({ text }: { text: string | null }) {
  const intl = useIntl();
  if (text !== null) return text;
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="dv-visually-hidden">{intl.formatMessage(messages.notMeasured)}</span>
    </>
  );
}

/**
 * The steps as horizontal bars: those who finished each step, and after them, hatched, those who stopped on it
 * (the two together are those who got to it). For the eye only: the table says the same. The names are text,
 * so they wrap and grow with the page's text; each bar is an SVG as wide as the column.
 */
function FunnelChart({ funnel }: { funnel: FunnelData }) {
  const intl = useIntl();
  // An id that url(#…) takes as it is: React's ids carry punctuation.
  const pattern = `funnel-stopped-${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const scale = Math.max(1, funnel.started, ...funnel.steps.map((step) => step.reached + step.stoppedHere));
  const percent = (value: number) => `${(value / scale) * 100}%`;
  return (
    <div className="dv-funnel__chart" aria-hidden="true">
      <svg className="dv-funnel__defs" width="0" height="0" focusable="false">
        <defs>
          <pattern id={pattern} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" className="dv-funnel__stopped-ground" />
            <line x1="0" y1="0" x2="0" y2="6" className="dv-funnel__stopped-line" />
          </pattern>
        </defs>
      </svg>
      <p className="dv-funnel__legend-keys">
        <svg className="dv-funnel__key" focusable="false">
          <rect width="100%" height="100%" className="dv-funnel__reached" />
        </svg>
        {intl.formatMessage(messages.legendReached)}
        <svg className="dv-funnel__key" focusable="false">
          <rect width="100%" height="100%" fill={`url(#${pattern})`} />
        </svg>
        {intl.formatMessage(messages.legendStopped)}
      </p>
      <ol className="dv-funnel__bars">
        {funnel.steps.map((step) => (
          <li key={step.step} className="dv-funnel__bar">
            <span className="dv-funnel__bar-name">{stepTitle(intl, step.step, funnel.path === 'all')}</span>
            <span className="dv-funnel__bar-numbers">
              {intl.formatMessage(messages.chartRow, { reached: step.reached, stopped: step.stoppedHere })}
            </span>
            <svg className="dv-funnel__bar-track" width="100%" height="16" focusable="false">
              <rect className="dv-funnel__reached" x="0" y="0" height="16" width={percent(step.reached)} />
              <rect x={percent(step.reached)} y="0" height="16" width={percent(step.stoppedHere)} fill={`url(#${pattern})`} />
            </svg>
          </li>
        ))}
      </ol>
    </div>
  );
}
