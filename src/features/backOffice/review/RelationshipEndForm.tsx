// Internal control records the last day of an approved customer's relationship (docs/back-office.md, "End of
// relationship and retention"): a date, today at the latest. The server says what the evidence is then locked until.
import { useFormik } from 'formik';
import { useRef } from 'react';
import { useIntl } from 'react-intl';
import { object, string } from 'yup';
import { LoadingButton, TextInput } from '../../../components';
import { useFieldErrors } from '../../../forms/useFieldErrors';
import { describeMessages } from '../../../i18n/messages';
import { rules, validateSchema } from '../../../validation';
import { useRecordRelationshipEndMutation, type StaffApiError } from '../backOfficeApi';
import { Refusal } from '../Refusal';

const messages = describeMessages({
  title: { id: 'backOffice.relationshipEnd.title', defaultMessage: 'End of relationship' },
  date: { id: 'backOffice.relationshipEnd.date', defaultMessage: 'Last day as a customer' },
  hint: {
    id: 'backOffice.relationshipEnd.hint',
    defaultMessage: 'Recorded once and never changed: the records are kept ten years from this day, and after five only internal control reads them.',
  },
  submit: { id: 'backOffice.relationshipEnd.submit', defaultMessage: 'Record end of relationship' },
  done: { id: 'backOffice.relationshipEnd.done', defaultMessage: 'The relationship ended on {endedOn}. Its evidence is kept until {retainUntil}.' },
});

const schema = object({ date: string().test(rules.required()) });

/** The form, for an approved application seen by a member of compliance. */
export function RelationshipEndForm({ id, onDone }: { id: string; onDone: (text: string) => void }) {
  const intl = useIntl();
  const [record, { error }] = useRecordRelationshipEndMutation();
  const formik = useFormik({
    initialValues: { date: '' },
    validate: (values) => validateSchema(schema, values),
    validateOnChange: false,
    onSubmit: async (values) => {
      const end = await record({ id, date: values.date })
        .unwrap()
        .catch(() => undefined);
      if (end) onDone(intl.formatMessage(messages.done, { endedOn: end.endedOn, retainUntil: end.retainUntil.slice(0, 10) }));
    },
  });
  const dateRef = useRef<HTMLInputElement>(null);
  const errors = useFieldErrors(formik, ['date'], { date: dateRef });
  return (
    <section className="dv-bo-panel" aria-label={intl.formatMessage(messages.title)}>
      <h3>{intl.formatMessage(messages.title)}</h3>
      <form noValidate onSubmit={formik.handleSubmit}>
        <TextInput
          ref={dateRef}
          type="date"
          label={intl.formatMessage(messages.date)}
          description={intl.formatMessage(messages.hint)}
          name="date"
          value={formik.values.date}
          onChange={formik.handleChange}
          onBlur={formik.handleBlur}
          {...errors.date}
        />
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.submit)}
        </LoadingButton>
      </form>
      <Refusal error={error as StaffApiError | undefined} />
    </section>
  );
}
