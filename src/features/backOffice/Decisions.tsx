// The review's actions on one application: the identity check's decision, approving, rejecting (with the words
// the applicant receives, from a template), and internal notes. Each shows only to the roles that can take it;
// the server refuses the rest anyway, and every refusal is said in words.
import { useFormik } from 'formik';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { object, string } from 'yup';
import { LoadingButton, RadioGroup, SelectInput } from '../../components';
import { useFieldErrors } from '../../forms/useFieldErrors';
import { pageLocale } from '../../i18n/locale';
import { describeMessages } from '../../i18n/messages';
import { rules, validateSchema } from '../../validation';
import {
  useAddNoteMutation,
  useApproveMutation,
  useDecideIdentityMutation,
  useGetTemplatesQuery,
  useRejectMutation,
  useRequestMoreInfoMutation,
  type ApplicationPage,
  type StaffApiError,
  type StaffRole,
} from './backOfficeApi';
import { LongTextField } from './LongTextField';
import { Refusal } from './Refusal';
import { MoreInfoForm } from './review/MoreInfoForm';
import { RelationshipEndForm } from './review/RelationshipEndForm';

/** The most a reason or a note keeps (the server's REVIEW_TEXT_MAX). */
const REVIEW_TEXT_MAX = 2000;

const messages = describeMessages({
  approveTitle: { id: 'backOffice.decide.approve.title', defaultMessage: 'Approve' },
  approveLead: { id: 'backOffice.decide.approve.lead', defaultMessage: 'The customer is told at once and can start using the account.' },
  approveFirstLead: {
    id: 'backOffice.decide.approve.firstLead',
    defaultMessage: 'This application is high risk: your approval is the first of two. A second approver decides.',
  },
  approve: { id: 'backOffice.decide.approve.submit', defaultMessage: 'Approve the application' },
  approved: { id: 'backOffice.decide.approve.done', defaultMessage: 'The application is approved.' },
  firstApproval: { id: 'backOffice.decide.approve.first', defaultMessage: 'Your approval is recorded. The application is waiting for a second approver.' },
  effectsPending: {
    id: 'backOffice.decide.effectsPending',
    defaultMessage: 'The decision is recorded; some of its effects are still pending and will be completed automatically.',
  },
  rejectTitle: { id: 'backOffice.decide.reject.title', defaultMessage: 'Reject' },
  template: { id: 'backOffice.decide.reject.template', defaultMessage: 'Message to the applicant' },
  templateHint: { id: 'backOffice.decide.reject.templateHint', defaultMessage: 'Without one, the applicant receives the general rejection message.' },
  noTemplate: { id: 'backOffice.decide.reject.noTemplate', defaultMessage: 'The general message' },
  preview: { id: 'backOffice.decide.reject.preview', defaultMessage: 'What the applicant will read ({language})' },
  reason: { id: 'backOffice.decide.reject.reason', defaultMessage: "The bank's reason" },
  reasonHint: { id: 'backOffice.decide.reject.reasonHint', defaultMessage: 'For the bank only: it is kept in the audit trail and never sent to the applicant.' },
  reject: { id: 'backOffice.decide.reject.submit', defaultMessage: 'Reject the application' },
  rejected: { id: 'backOffice.decide.reject.done', defaultMessage: 'The application is rejected and the applicant has been told.' },
  identityTitle: { id: 'backOffice.decide.identity.title', defaultMessage: 'Identity check' },
  identityLead: { id: 'backOffice.decide.identity.lead', defaultMessage: 'Compare the photos of the ID document with the selfie, then decide.' },
  identityDecision: { id: 'backOffice.decide.identity.decision', defaultMessage: 'Decision' },
  identityApprove: { id: 'backOffice.decide.identity.approve', defaultMessage: 'The identity is confirmed' },
  identityReject: { id: 'backOffice.decide.identity.reject', defaultMessage: 'The identity is not confirmed' },
  identityReason: { id: 'backOffice.decide.identity.reason', defaultMessage: 'Reason' },
  identityReasonHint: { id: 'backOffice.decide.identity.reasonHint', defaultMessage: 'Needed when the identity is not confirmed.' },
  identitySubmit: { id: 'backOffice.decide.identity.submit', defaultMessage: 'Record the decision' },
  identityDone: { id: 'backOffice.decide.identity.done', defaultMessage: 'The identity decision is recorded.' },
  noteTitle: { id: 'backOffice.note.title', defaultMessage: 'Internal note' },
  moreInfoTitle: { id: 'backOffice.decide.moreInfo.title', defaultMessage: 'Ask the applicant for more information' },
  moreInfoOpen: { id: 'backOffice.decide.moreInfo.open', defaultMessage: 'Ask for more information' },
  moreInfoDone: {
    id: 'backOffice.decide.moreInfo.done',
    defaultMessage: 'The applicant has been asked for more information. The application comes back to the queue when they sign again.',
  },
  note: { id: 'backOffice.note.label', defaultMessage: 'Note for the other reviewers' },
  noteHint: { id: 'backOffice.note.hint', defaultMessage: 'Kept in the audit trail; never shown to the applicant.' },
  noteSubmit: { id: 'backOffice.note.submit', defaultMessage: 'Add the note' },
  noteDone: { id: 'backOffice.note.done', defaultMessage: 'The note is added to the audit trail.' },
  languageEs: { id: 'backOffice.language.es', defaultMessage: 'Spanish' },
  languageEn: { id: 'backOffice.language.en', defaultMessage: 'English' },
});

const reviewText = () => string().test(rules.required()).test(rules.maxLength(REVIEW_TEXT_MAX));

/** A rejection: the bank's reason; a template is optional. */
const rejectSchema = object({ reason: reviewText(), templateId: string() });
/** An identity decision: rejecting needs a reason. */
const identitySchema = object({
  decision: string().test(rules.required()),
  reason: string()
    .test(rules.requiredIf('decision', (decision) => decision === 'reject'))
    .test(rules.maxLength(REVIEW_TEXT_MAX)),
});
const noteSchema = object({ text: reviewText() });

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="dv-bo-panel" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** The actions this member can take on this application now. */
export function Decisions({ application, roles }: { application: ApplicationPage; roles: readonly StaffRole[] }) {
  const { awaiting, canAct, approvals = [] } = application.review;
  const reviews = roles.includes('reviewer') || roles.includes('approver');
  const deciding = awaiting === 'decision' || awaiting === 'second-approval';
  // What was done stays said after its form has gone (a decided application has no decision to take). So does a
  // decision refused: the application is reloaded after it, and the form may go (it is no longer this member's to
  // take), so its alert is said here, above the forms, not in them.
  const [done, setDone] = useState('');
  const [refused, setRefused] = useState<StaffApiError>();
  const outcome: Outcome = {
    done: (text) => {
      setRefused(undefined);
      setDone(text);
    },
    refused: (error) => {
      setDone('');
      setRefused(error);
    },
  };
  return (
    <>
      <p className="dv-bo-done" role="status">
        {done}
      </p>
      <Refusal focus error={refused} />
      {awaiting === 'identity-review' && canAct && <IdentityDecision id={application.id} outcome={outcome} />}
      {deciding && roles.includes('approver') && canAct && <Approve id={application.id} first={application.risk.fourEyes && approvals.length === 0} outcome={outcome} />}
      {deciding && reviews && <MoreInfo application={application} onDone={outcome.done} />}
      {deciding && reviews && <Reject application={application} outcome={outcome} />}
      {reviews && <Note id={application.id} onDone={outcome.done} />}
      {roles.includes('compliance') && application.status === 'approved' && <RelationshipEndForm id={application.id} onDone={outcome.done} />}
    </>
  );
}

type Done = (text: string) => void;
/** How a decision's form says what came of it, in the page's status line or its alert. */
type Outcome = { done: Done; refused: (error: StaffApiError) => void };

function Approve({ id, first, outcome }: { id: string; first: boolean; outcome: Outcome }) {
  const intl = useIntl();
  const [approve, { isLoading }] = useApproveMutation();
  const submit = async () => {
    const answer = await approve(id)
      .unwrap()
      .catch((error: StaffApiError) => outcome.refused(error));
    if (answer) outcome.done(intl.formatMessage(answer.effectsPending.length > 0 ? messages.effectsPending : answer.awaitingSecondApproval ? messages.firstApproval : messages.approved));
  };
  return (
    <Panel title={intl.formatMessage(messages.approveTitle)}>
      <p>{intl.formatMessage(first ? messages.approveFirstLead : messages.approveLead)}</p>
      <LoadingButton loading={isLoading} onClick={() => void submit()}>
        {intl.formatMessage(messages.approve)}
      </LoadingButton>
    </Panel>
  );
}

/** Sends the application back to its applicant for the steps chosen (they sign again): the form opens on demand. */
function MoreInfo({ application, onDone }: { application: ApplicationPage; onDone: Done }) {
  const intl = useIntl();
  const { data: templates = [] } = useGetTemplatesQuery();
  const [request] = useRequestMoreInfoMutation();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const offered = templates.filter((template) => template.kind === 'more-info' && !template.retired);
  return (
    <Panel title={intl.formatMessage(messages.moreInfoTitle)}>
      {open ? (
        <MoreInfoForm
          reopenable={application.reopenable}
          templates={offered}
          language={application.language === 'es' ? 'es' : 'en'}
          onSubmit={async (asked) => {
            // A refusal is thrown with its code: the form says it in words.
            await request({ id: application.id, ...asked }).unwrap();
            onDone(intl.formatMessage(messages.moreInfoDone));
          }}
          onCancel={() => {
            setOpen(false);
            requestAnimationFrame(() => opener.current?.focus());
          }}
        />
      ) : (
        <button type="button" className="dv-bo-link-button" ref={opener} onClick={() => setOpen(true)}>
          {intl.formatMessage(messages.moreInfoOpen)}
        </button>
      )}
    </Panel>
  );
}

function Reject({ application, outcome }: { application: ApplicationPage; outcome: Outcome }) {
  const intl = useIntl();
  const { data: templates = [] } = useGetTemplatesQuery();
  const [reject] = useRejectMutation();
  const offered = templates.filter((template) => template.kind === 'rejection' && !template.retired);
  const formik = useFormik({
    initialValues: { templateId: '', reason: '' },
    validate: (values) => validateSchema(rejectSchema, values),
    validateOnChange: false,
    onSubmit: async (values) => {
      const answer = await reject({ id: application.id, reason: values.reason.trim(), templateId: values.templateId || undefined })
        .unwrap()
        .catch((error: StaffApiError) => outcome.refused(error));
      if (answer) outcome.done(intl.formatMessage(answer.effectsPending.length > 0 ? messages.effectsPending : messages.rejected));
    },
  });
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const errors = useFieldErrors(formik, ['reason'], { reason: reasonRef });
  const chosen = offered.find((template) => template.id === formik.values.templateId);
  const language = application.language === 'es' ? 'es' : 'en';
  return (
    <Panel title={intl.formatMessage(messages.rejectTitle)}>
      <form noValidate onSubmit={formik.handleSubmit}>
        <SelectInput
          label={intl.formatMessage(messages.template)}
          description={intl.formatMessage(messages.templateHint)}
          placeholder={intl.formatMessage(messages.noTemplate)}
          name="templateId"
          value={formik.values.templateId}
          onChange={formik.handleChange}
          options={offered.map((template) => ({ value: template.id, label: template.title[pageLocale(intl.locale)] }))}
        />
        {chosen && (
          <figure className="dv-bo-preview">
            <figcaption>{intl.formatMessage(messages.preview, { language: intl.formatMessage(language === 'es' ? messages.languageEs : messages.languageEn) })}</figcaption>
            <blockquote lang={language}>
              <p className="dv-bo-preview__title">{chosen.title[language]}</p>
              <p>{chosen.body[language]}</p>
            </blockquote>
          </figure>
        )}
        <LongTextField
          max={REVIEW_TEXT_MAX}
          ref={reasonRef}
          label={intl.formatMessage(messages.reason)}
          description={intl.formatMessage(messages.reasonHint)}
          name="reason"
          value={formik.values.reason}
          onChange={formik.handleChange}
          onBlur={formik.handleBlur}
          {...errors.reason}
        />
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.reject)}
        </LoadingButton>
      </form>
    </Panel>
  );
}

function IdentityDecision({ id, outcome }: { id: string; outcome: Outcome }) {
  const intl = useIntl();
  const [decide] = useDecideIdentityMutation();
  const formik = useFormik({
    initialValues: { decision: '', reason: '' },
    validate: (values) => validateSchema(identitySchema, values),
    validateOnChange: false,
    onSubmit: async (values) => {
      const decision = values.decision as 'approve' | 'reject';
      const answer = await decide({ id, decision, reason: values.reason.trim() || undefined })
        .unwrap()
        .catch((error: StaffApiError) => outcome.refused(error));
      if (answer) outcome.done(intl.formatMessage(messages.identityDone));
    },
  });
  const decisionRef = useRef<HTMLInputElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const errors = useFieldErrors(formik, ['decision', 'reason'], { decision: decisionRef, reason: reasonRef });
  return (
    <Panel title={intl.formatMessage(messages.identityTitle)}>
      <p>{intl.formatMessage(messages.identityLead)}</p>
      <form noValidate onSubmit={formik.handleSubmit}>
        <RadioGroup
          ref={decisionRef}
          legend={intl.formatMessage(messages.identityDecision)}
          name="decision"
          value={formik.values.decision}
          onChange={(value) => void formik.setFieldValue('decision', value)}
          options={[
            { value: 'approve', label: intl.formatMessage(messages.identityApprove) },
            { value: 'reject', label: intl.formatMessage(messages.identityReject) },
          ]}
          {...errors.decision}
        />
        <LongTextField
          max={REVIEW_TEXT_MAX}
          ref={reasonRef}
          label={intl.formatMessage(messages.identityReason)}
          description={intl.formatMessage(messages.identityReasonHint)}
          name="reason"
          value={formik.values.reason}
          onChange={formik.handleChange}
          onBlur={formik.handleBlur}
          {...errors.reason}
        />
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.identitySubmit)}
        </LoadingButton>
      </form>
    </Panel>
  );
}

function Note({ id, onDone }: { id: string; onDone: Done }) {
  const intl = useIntl();
  const [addNote, { error }] = useAddNoteMutation();
  const formik = useFormik({
    initialValues: { text: '' },
    validate: (values) => validateSchema(noteSchema, values),
    validateOnChange: false,
    onSubmit: async (values, helpers) => {
      const ok = await addNote({ id, text: values.text.trim() })
        .unwrap()
        .then(() => true)
        .catch(() => false);
      if (ok) {
        helpers.resetForm();
        onDone(intl.formatMessage(messages.noteDone));
      }
    },
  });
  const textRef = useRef<HTMLTextAreaElement>(null);
  const errors = useFieldErrors(formik, ['text'], { text: textRef });
  return (
    <Panel title={intl.formatMessage(messages.noteTitle)}>
      <form noValidate onSubmit={formik.handleSubmit}>
        <LongTextField
          max={REVIEW_TEXT_MAX}
          ref={textRef}
          label={intl.formatMessage(messages.note)}
          description={intl.formatMessage(messages.noteHint)}
          name="text"
          value={formik.values.text}
          onChange={formik.handleChange}
          onBlur={formik.handleBlur}
          {...errors.text}
        />
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.noteSubmit)}
        </LoadingButton>
      </form>
      <Refusal focus error={error as StaffApiError | undefined} />
    </Panel>
  );
}
