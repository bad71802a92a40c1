// A person's requests about their data, answered from their application's page by those whose roles allow it
// (src/config/staffRights.ts): a copy of everything held about them, downloaded as one archive, and a request to erase it,
// whose outcome for each of their applications is said in words.
import { useFormik } from 'formik';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { object, string } from 'yup';
import { useAppDispatch } from '../../app/hooks';
import { LoadingButton, TextInput } from '../../components';
import { REQUEST_TIMEOUT_MS } from '../../config';
import { useFieldErrors } from '../../forms/useFieldErrors';
import { describeMessages } from '../../i18n/messages';
import { rules, validateSchema } from '../../validation';
import { mayAnswerErasureRequests, mayExportPersonalData } from '../../config/staffRights';
import { errorCodeOf, STAFF_API_BASE, staffCallAnswered, staffSessionEnded, useRequestErasureMutation, type ErasureAnswer, type StaffApiError } from './backOfficeApi';
import { Refusal } from './Refusal';

const messages = describeMessages({
  exportTitle: { id: 'backOffice.personalData.export.title', defaultMessage: 'Export personal data' },
  exportLead: {
    id: 'backOffice.personalData.export.lead',
    defaultMessage: "Everything held about this person, all their applications, in their language: a JSON file and their documents and contracts. Internal notes, the bank's reasons and the risk assessment are not included.",
  },
  exportSubmit: { id: 'backOffice.personalData.export.submit', defaultMessage: 'Download the archive' },
  exportDone: { id: 'backOffice.personalData.export.done', defaultMessage: 'The archive is downloaded. Send it to the person within a month of their request.' },
  erasureTitle: { id: 'backOffice.personalData.erasure.title', defaultMessage: 'Erasure request' },
  erasureLead: {
    id: 'backOffice.personalData.erasure.lead',
    defaultMessage: 'An application never sent to the bank is erased at once. A signed, approved or rejected one is kept as the anti-money-laundering law requires, and the refusal is recorded.',
  },
  received: { id: 'backOffice.personalData.erasure.received', defaultMessage: 'Day the request was received' },
  erasureSubmit: { id: 'backOffice.personalData.erasure.submit', defaultMessage: 'Record and answer the request' },
  erased: { id: 'backOffice.personalData.erasure.erased', defaultMessage: 'Application {id}: erased.' },
  alreadyErased: { id: 'backOffice.personalData.erasure.alreadyErased', defaultMessage: 'Application {id}: already erased.' },
  refused: { id: 'backOffice.personalData.erasure.refused', defaultMessage: 'Application {id}: kept ({ground}; {law}). Tell the person this ground.' },
  groundCustomer: { id: 'backOffice.personalData.erasure.ground.customer', defaultMessage: 'an approved customer' },
  groundRefused: { id: 'backOffice.personalData.erasure.ground.refused', defaultMessage: 'a rejected application under retention' },
  groundAwaiting: { id: 'backOffice.personalData.erasure.ground.awaiting', defaultMessage: 'under the bank’s review' },
  due: { id: 'backOffice.personalData.erasure.due', defaultMessage: 'Answer the person by {date}.' },
});

const GROUNDS: Record<string, keyof typeof messages> = {
  'customer-relationship': 'groundCustomer',
  'refused-aml-retention': 'groundRefused',
  'awaiting-decision': 'groundAwaiting',
};

const erasureSchema = object({ receivedOn: string().test(rules.required()) });

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="dv-bo-panel" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** The download of the archive: fetched with the session, saved under the server's name for it. */
function ExportPersonalData({ id }: { id: string }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(false);
  const [refused, setRefused] = useState<StaffApiError>();
  const download = async () => {
    setLoading(true);
    setDone(false);
    setRefused(undefined);
    try {
      const response = await fetch(`${STAFF_API_BASE}/applications/${encodeURIComponent(id)}/personal-data`, { credentials: 'same-origin', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      if (!response.ok) {
        const code = errorCodeOf(await response.json().catch(() => undefined));
        if (response.status === 401 && code === 'NO_STAFF_SESSION') dispatch(staffSessionEnded('expired'));
        else dispatch(staffCallAnswered(Date.now()));
        setRefused({ status: response.status, code });
        return;
      }
      dispatch(staffCallAnswered(Date.now()));
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `personal-data-${id}.zip`;
      link.click();
      URL.revokeObjectURL(url);
      setDone(true);
    } catch {
      setRefused({ status: 'FETCH_ERROR' });
    } finally {
      setLoading(false);
    }
  };
  return (
    <Section title={intl.formatMessage(messages.exportTitle)}>
      <p className="dv-bo-muted">{intl.formatMessage(messages.exportLead)}</p>
      <LoadingButton type="button" loading={loading} onClick={() => void download()}>
        {intl.formatMessage(messages.exportSubmit)}
      </LoadingButton>
      <p className="dv-bo-done" role="status">
        {done ? intl.formatMessage(messages.exportDone) : ''}
      </p>
      <Refusal error={refused} />
    </Section>
  );
}

function ErasureRequest({ id }: { id: string }) {
  const intl = useIntl();
  const [requestErasure, { error }] = useRequestErasureMutation();
  const [answer, setAnswer] = useState<ErasureAnswer>();
  const formik = useFormik({
    initialValues: { receivedOn: '' },
    validate: (values) => validateSchema(erasureSchema, values),
    validateOnChange: false,
    onSubmit: async (values) => {
      setAnswer(undefined);
      await requestErasure({ id, receivedOn: values.receivedOn })
        .unwrap()
        .then(setAnswer)
        .catch(() => undefined);
    },
  });
  const receivedRef = useRef<HTMLInputElement>(null);
  const errors = useFieldErrors(formik, ['receivedOn'], { receivedOn: receivedRef });
  const line = (outcome: ErasureAnswer['outcomes'][number]) => {
    if (outcome.outcome === 'erased') return intl.formatMessage(messages.erased, { id: outcome.applicationId });
    if (outcome.outcome === 'already-erased') return intl.formatMessage(messages.alreadyErased, { id: outcome.applicationId });
    const ground = GROUNDS[outcome.ground ?? ''];
    return intl.formatMessage(messages.refused, { id: outcome.applicationId, ground: ground ? intl.formatMessage(messages[ground]) : (outcome.ground ?? ''), law: outcome.law ?? '' });
  };
  return (
    <Section title={intl.formatMessage(messages.erasureTitle)}>
      <p className="dv-bo-muted">{intl.formatMessage(messages.erasureLead)}</p>
      <form noValidate onSubmit={formik.handleSubmit}>
        <TextInput
          ref={receivedRef}
          type="date"
          label={intl.formatMessage(messages.received)}
          name="receivedOn"
          value={formik.values.receivedOn}
          onChange={formik.handleChange}
          onBlur={formik.handleBlur}
          {...errors.receivedOn}
        />
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.erasureSubmit)}
        </LoadingButton>
      </form>
      <div className="dv-bo-done" role="status">
        {answer && (
          <>
            {answer.outcomes.map((outcome) => (
              <p key={outcome.applicationId}>{line(outcome)}</p>
            ))}
            <p>{intl.formatMessage(messages.due, { date: intl.formatDate(`${answer.answerDue}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' }) })}</p>
          </>
        )}
      </div>
      <Refusal error={error as StaffApiError | undefined} />
    </Section>
  );
}

/** The actions on a person's data this member's roles allow, if any. */
export function PersonRequests({ id, roles }: { id: string; roles: readonly string[] }) {
  return (
    <>
      {mayExportPersonalData(roles) && <ExportPersonalData id={id} />}
      {mayAnswerErasureRequests(roles) && <ErasureRequest id={id} />}
    </>
  );
}
