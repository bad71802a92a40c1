import { useFormik } from 'formik';
import { useId, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { array, object, string } from 'yup';
import { LoadingButton, SelectInput } from '../../../components';
import { useFieldErrors } from '../../../forms/useFieldErrors';
import { pageLocale } from '../../../i18n/locale';
import { describeMessages } from '../../../i18n/messages';
import { rules, validateSchema } from '../../../validation';
import { LongTextField } from '../LongTextField';
import { refusalCodeOf } from '../refusals';
import { stepTitle } from '../stepTitles';
import type { ReviewTemplateItem } from '../templates/TemplatesView';
import '../../../components/Choice.css';
import '../backOffice.css';
import './moreInfo.css';

/** What POST /staff-api/applications/:id/more-info takes. */
export interface MoreInfoRequest {
  steps: string[];
  templateId?: string;
  message?: string;
}

export interface MoreInfoFormProps {
  /** The steps of this application that can be reopened (its page's `reopenable`), in the wizard's order. */
  reopenable: readonly string[];
  /** The templates of requests for more information that are offered (not retired). */
  templates: readonly ReviewTemplateItem[];
  /** The applicant's language: the words they will read. */
  language: 'es' | 'en';
  /** Sends the request; throws an error with the refusal's `code` when the bank refuses it. */
  onSubmit(request: MoreInfoRequest): Promise<void>;
  onCancel(): void;
}

/** The longest message the staff API takes. */
const MORE_INFO_MESSAGE_MAX = 2000;

const messages = describeMessages({
  steps: { id: 'backOffice.moreInfo.steps', defaultMessage: 'Steps the applicant must answer again' },
  stepsRequired: { id: 'backOffice.moreInfo.stepsRequired', defaultMessage: 'Choose at least one step to reopen' },
  template: { id: 'backOffice.moreInfo.template', defaultMessage: 'Template' },
  noTemplate: { id: 'backOffice.moreInfo.noTemplate', defaultMessage: 'No template: only my message' },
  message: { id: 'backOffice.moreInfo.message', defaultMessage: 'Your message to the applicant (optional with a template)' },
  wordsRequired: { id: 'backOffice.moreInfo.wordsRequired', defaultMessage: 'Choose a template or write a message: the applicant needs to know what to change' },
  preview: {
    id: 'backOffice.moreInfo.preview',
    defaultMessage: 'What the applicant will read, in {language, select, es {Spanish} other {English}}',
  },
  previewEmpty: { id: 'backOffice.moreInfo.previewEmpty', defaultMessage: 'Choose a template or write a message to see it here.' },
  signAgain: {
    id: 'backOffice.moreInfo.signAgain',
    defaultMessage:
      'The application goes back to the applicant, who will have to sign the contract again. The contract signed is kept as superseded and any approval given so far is dropped.',
  },
  send: { id: 'backOffice.moreInfo.send', defaultMessage: 'Send back to the applicant' },
  cancel: { id: 'backOffice.moreInfo.cancel', defaultMessage: 'Cancel' },
  stepNotReopenable: { id: 'backOffice.moreInfo.stepNotReopenable', defaultMessage: 'One of the steps chosen cannot be reopened on this application. Reload it and choose again.' },
  notDecidable: { id: 'backOffice.moreInfo.notDecidable', defaultMessage: 'The application is not signed and waiting for the bank, so it cannot be sent back.' },
  alreadyDecided: { id: 'backOffice.moreInfo.alreadyDecided', defaultMessage: 'The application has been decided already.' },
  concurrentChange: { id: 'backOffice.moreInfo.concurrentChange', defaultMessage: 'Someone else changed the application meanwhile. Reload it and try again.' },
  templateNotFound: { id: 'backOffice.moreInfo.templateNotFound', defaultMessage: 'That template is no longer offered. Choose another or write a message.' },
  failed: { id: 'backOffice.moreInfo.failed', defaultMessage: 'The request could not be sent. Try again in a moment.' },
});

const REFUSALS: Record<string, (typeof messages)[keyof typeof messages]> = {
  STEP_NOT_REOPENABLE: messages.stepNotReopenable,
  NOT_DECIDABLE: messages.notDecidable,
  ALREADY_DECIDED: messages.alreadyDecided,
  CONCURRENT_CHANGE: messages.concurrentChange,
  TEMPLATE_NOT_FOUND: messages.templateNotFound,
};

interface Values {
  steps: string[];
  templateId: string;
  message: string;
}

const FIELDS: (keyof Values)[] = ['steps', 'templateId', 'message'];

const schema = object({
  steps: array(string()).test({ name: 'stepsRequired', message: () => ({ id: messages.stepsRequired.id }), test: (value) => (value?.length ?? 0) > 0 }),
  templateId: string(),
  message: string()
    .test(rules.maxLength(MORE_INFO_MESSAGE_MAX))
    .test({
      name: 'wordsRequired',
      message: () => ({ id: messages.wordsRequired.id }),
      test: (value, context) => Boolean(value?.trim()) || Boolean((context.parent as Values).templateId),
    }),
});

/**
 * Sends a signed application back to its applicant: the steps to reopen, and the words they will read (a
 * template's, the reviewer's, or both), previewed in the applicant's language.
 */
export function MoreInfoForm({ reopenable, templates, language, onSubmit, onCancel }: MoreInfoFormProps) {
  const intl = useIntl();
  const id = useId();
  const [refusal, setRefusal] = useState('');
  const firstStep = useRef<HTMLInputElement>(null);
  const templateSelect = useRef<HTMLSelectElement>(null);
  const messageArea = useRef<HTMLTextAreaElement>(null);
  const offered = templates.filter((template) => template.kind === 'more-info' && !template.retired);
  const formik = useFormik<Values>({
    initialValues: { steps: [], templateId: '', message: '' },
    validate: (values) => validateSchema(schema, values),
    validateOnChange: false,
    onSubmit: async (values) => {
      setRefusal('');
      const message = values.message.trim();
      try {
        await onSubmit({
          // In the wizard's order, whatever the order they were ticked in.
          steps: reopenable.filter((step) => values.steps.includes(step)),
          ...(values.templateId ? { templateId: values.templateId } : {}),
          ...(message ? { message } : {}),
        });
      } catch (error) {
        setRefusal(intl.formatMessage(REFUSALS[refusalCodeOf(error) ?? ''] ?? messages.failed));
      }
    },
  });
  const errors = useFieldErrors(formik, FIELDS, { steps: firstStep, templateId: templateSelect, message: messageArea });
  const reviewerLanguage = pageLocale(intl.locale);
  const template = offered.find((candidate) => candidate.id === formik.values.templateId);
  const words = [template?.body[language], formik.values.message.trim()].filter(Boolean);

  const toggle = (step: string, checked: boolean) =>
    formik.setFieldValue('steps', checked ? [...formik.values.steps, step] : formik.values.steps.filter((chosen) => chosen !== step));

  return (
    <form className="dv-more-info" noValidate onSubmit={formik.handleSubmit}>
      <fieldset
        className={['dv-choice-group', errors.steps.error && 'dv-choice-group--error'].filter(Boolean).join(' ')}
        aria-describedby={errors.steps.error ? `${id}-steps-error` : undefined}
      >
        <legend className="dv-choice-group__legend">{intl.formatMessage(messages.steps)}</legend>
        <div className="dv-choice-group__options">
          {reopenable.map((step, index) => (
            <label key={step} className="dv-choice dv-choice--plain">
              <input
                ref={index === 0 ? firstStep : undefined}
                type="checkbox"
                name="steps"
                value={step}
                checked={formik.values.steps.includes(step)}
                onChange={(event) => toggle(step, event.target.checked)}
                onBlur={formik.handleBlur}
                aria-invalid={errors.steps.error || undefined}
              />
              <span className="dv-choice__label">{stepTitle(intl, step)}</span>
            </label>
          ))}
        </div>
        <p id={`${id}-steps-error`} className="dv-field__error">
          {errors.steps.errorText}
        </p>
      </fieldset>
      <SelectInput
        label={intl.formatMessage(messages.template)}
        placeholder={intl.formatMessage(messages.noTemplate)}
        options={offered.map((candidate) => ({ value: candidate.id, label: candidate.title[reviewerLanguage] }))}
        name="templateId"
        value={formik.values.templateId}
        onChange={formik.handleChange}
        onBlur={formik.handleBlur}
        ref={templateSelect}
      />
      <LongTextField
        label={intl.formatMessage(messages.message)}
        name="message"
        lang={language}
        max={MORE_INFO_MESSAGE_MAX}
        value={formik.values.message}
        onChange={formik.handleChange}
        onBlur={formik.handleBlur}
        ref={messageArea}
        {...errors.message}
      />
      <section className="dv-more-info__preview" aria-labelledby={`${id}-preview`}>
        <h3 id={`${id}-preview`} className="dv-more-info__preview-title">
          {intl.formatMessage(messages.preview, { language })}
        </h3>
        {words.length > 0 ? (
          <div lang={language}>
            {words.map((text, index) => (
              <p key={index} className="dv-more-info__words">
                {text}
              </p>
            ))}
          </div>
        ) : (
          <p className="dv-more-info__empty">{intl.formatMessage(messages.previewEmpty)}</p>
        )}
      </section>
      <p id={`${id}-sign-again`} className="dv-more-info__warning">
        {intl.formatMessage(messages.signAgain)}
      </p>
      <p className="dv-bo-feedback" role="alert">
        {refusal}
      </p>
      <div className="dv-bo-actions">
        <LoadingButton type="submit" loading={formik.isSubmitting} aria-describedby={`${id}-sign-again`}>
          {intl.formatMessage(messages.send)}
        </LoadingButton>
        <button type="button" className="dv-bo-link-button" onClick={onCancel}>
          {intl.formatMessage(messages.cancel)}
        </button>
      </div>
    </form>
  );
}
