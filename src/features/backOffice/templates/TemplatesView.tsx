import { useFormik } from 'formik';
import { useEffect, useId, useRef, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { object, string } from 'yup';
import { LoadingButton, SelectInput, TextInput } from '../../../components';
import { useFieldErrors } from '../../../forms/useFieldErrors';
import { describeMessages } from '../../../i18n/messages';
import { rules, validateSchema, type Rule } from '../../../validation';
import { LongTextField } from '../LongTextField';
import { refusalCodeOf } from '../refusals';
import '../backOffice.css';
import './templates.css';

export type TemplateKind = 'rejection' | 'more-info';

/** A template as GET /staff-api/templates lists it. */
export interface ReviewTemplateItem {
  id: string;
  kind: TemplateKind;
  title: { es: string; en: string };
  body: { es: string; en: string };
  updatedAt: string;
  updatedBy: string;
  retired: boolean;
}

/** What PUT /staff-api/templates/:id writes (the id names it). */
export type TemplateDraft = Omit<ReviewTemplateItem, 'updatedAt' | 'updatedBy'>;

export interface TemplatesViewProps {
  templates: readonly ReviewTemplateItem[];
  /** An administrator's: the editor and the retire and restore buttons. */
  canEdit: boolean;
  /** Writes a template; throws an error with the refusal's `code` when the bank refuses it. */
  onSave(template: TemplateDraft): Promise<void>;
}

/** The lengths the staff API takes. */
const TEMPLATE_TITLE_MAX = 120;
const TEMPLATE_BODY_MAX = 2000;
const ID_PATTERN = /^[a-z0-9-]{1,64}$/;
const KINDS: readonly TemplateKind[] = ['rejection', 'more-info'];
const LANGUAGES = ['es', 'en'] as const;

const messages = describeMessages({
  rejection: { id: 'backOffice.templates.kind.rejection', defaultMessage: 'Rejections' },
  moreInfo: { id: 'backOffice.templates.kind.moreInfo', defaultMessage: 'Requests for more information' },
  kindRejection: { id: 'backOffice.templates.kindName.rejection', defaultMessage: 'Rejection' },
  kindMoreInfo: { id: 'backOffice.templates.kindName.moreInfo', defaultMessage: 'Request for more information' },
  none: { id: 'backOffice.templates.none', defaultMessage: 'No templates of this kind yet.' },
  retired: { id: 'backOffice.templates.retired', defaultMessage: 'Retired: no longer offered' },
  changed: { id: 'backOffice.templates.changed', defaultMessage: 'Changed on {date} by {who}' },
  spanish: { id: 'backOffice.templates.spanish', defaultMessage: 'Spanish' },
  english: { id: 'backOffice.templates.english', defaultMessage: 'English' },
  add: { id: 'backOffice.templates.add', defaultMessage: 'New template' },
  edit: { id: 'backOffice.templates.edit', defaultMessage: 'Edit {id}' },
  retire: { id: 'backOffice.templates.retire', defaultMessage: 'Retire {id}' },
  restore: { id: 'backOffice.templates.restore', defaultMessage: 'Restore {id}' },
  newTitle: { id: 'backOffice.templates.newTitle', defaultMessage: 'New template' },
  editTitle: { id: 'backOffice.templates.editTitle', defaultMessage: 'Template {id}' },
  idLabel: { id: 'backOffice.templates.idLabel', defaultMessage: 'Identifier' },
  idHint: { id: 'backOffice.templates.idHint', defaultMessage: 'Lower-case letters, digits and dashes; it cannot be changed later.' },
  idPattern: { id: 'backOffice.templates.idPattern', defaultMessage: 'Use only lower-case letters, digits and dashes, up to 64' },
  idTaken: { id: 'backOffice.templates.idTaken', defaultMessage: 'There is a template with this identifier already: edit it or choose another' },
  kindLabel: { id: 'backOffice.templates.kindLabel', defaultMessage: 'Kind' },
  kindHint: { id: 'backOffice.templates.kindHint', defaultMessage: 'It cannot be changed later.' },
  kindPlaceholder: { id: 'backOffice.templates.kindPlaceholder', defaultMessage: 'Choose a kind' },
  titleLabel: { id: 'backOffice.templates.titleLabel', defaultMessage: 'Title' },
  bodyLabel: { id: 'backOffice.templates.bodyLabel', defaultMessage: 'Words for the applicant' },
  save: { id: 'backOffice.templates.save', defaultMessage: 'Save template' },
  cancel: { id: 'backOffice.templates.cancel', defaultMessage: 'Cancel' },
  saved: { id: 'backOffice.templates.saved', defaultMessage: 'Template {id} saved.' },
  retiredNow: { id: 'backOffice.templates.retiredNow', defaultMessage: 'Template {id} retired: it is no longer offered.' },
  restoredNow: { id: 'backOffice.templates.restoredNow', defaultMessage: 'Template {id} restored: it is offered again.' },
  kindDiffers: {
    id: 'backOffice.templates.kindDiffers',
    defaultMessage: 'Template {id} exists with the other kind, which never changes: give this one another identifier.',
  },
  roleRequired: { id: 'backOffice.templates.roleRequired', defaultMessage: 'Only administrators can change templates.' },
  failed: { id: 'backOffice.templates.failed', defaultMessage: 'Template {id} could not be saved. Try again in a moment.' },
});

const KIND_GROUPS = { rejection: messages.rejection, 'more-info': messages.moreInfo };
const KIND_NAMES = { rejection: messages.kindRejection, 'more-info': messages.kindMoreInfo };
const LANGUAGE_NAMES = { es: messages.spanish, en: messages.english };

/** A refusal of the bank in words. */
function refusalText(intl: IntlShape, error: unknown, id: string): string {
  const code = refusalCodeOf(error);
  if (code === 'TEMPLATE_KIND_DIFFERS') return intl.formatMessage(messages.kindDiffers, { id });
  if (code === 'ROLE_REQUIRED') return intl.formatMessage(messages.roleRequired);
  return intl.formatMessage(messages.failed, { id });
}

type Feedback = { role: 'status' | 'alert'; text: string } | null;

/**
 * The words the bank gives applicants when it rejects them or asks them for more, by kind, in both languages.
 * An administrator writes new ones, edits them, and retires them (kept, since decisions name them, but no
 * longer offered) or restores them.
 */
export function TemplatesView({ templates, canEdit, onSave }: TemplatesViewProps) {
  const intl = useIntl();
  const [editing, setEditing] = useState<ReviewTemplateItem | 'new' | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [pending, setPending] = useState<string | null>(null);
  // Where focus goes back to when the editor closes: the button that opened it.
  const opener = useRef<HTMLElement | null>(null);

  const open = (template: ReviewTemplateItem | 'new') => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setFeedback(null);
    setEditing(template);
  };
  const close = (done?: string) => {
    setEditing(null);
    if (done) setFeedback({ role: 'status', text: done });
  };
  const wasEditing = useRef(false);
  useEffect(() => {
    if (editing === null && wasEditing.current) opener.current?.focus();
    wasEditing.current = editing !== null;
  }, [editing]);
  const toggleRetired = async (template: ReviewTemplateItem) => {
    setFeedback(null);
    setPending(template.id);
    try {
      await onSave({ id: template.id, kind: template.kind, title: template.title, body: template.body, retired: !template.retired });
      setFeedback({ role: 'status', text: intl.formatMessage(template.retired ? messages.restoredNow : messages.retiredNow, { id: template.id }) });
    } catch (error) {
      setFeedback({ role: 'alert', text: refusalText(intl, error, template.id) });
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="dv-templates">
      {canEdit && (
        <div className="dv-bo-actions">
          <LoadingButton onClick={() => open('new')} disabled={editing !== null}>
            {intl.formatMessage(messages.add)}
          </LoadingButton>
        </div>
      )}
      <p className="dv-bo-feedback" role="status">
        {feedback?.role === 'status' ? feedback.text : ''}
      </p>
      <p className="dv-bo-feedback" role="alert">
        {feedback?.role === 'alert' ? feedback.text : ''}
      </p>
      {canEdit && editing !== null && (
        <TemplateEditor
          template={editing === 'new' ? undefined : editing}
          takenIds={templates.map((template) => template.id)}
          onSave={onSave}
          onClose={close}
        />
      )}
      {KINDS.map((kind) => {
        const ofKind = templates.filter((template) => template.kind === kind);
        return (
          <section key={kind} className="dv-templates__group" aria-labelledby={`templates-${kind}`}>
            <h2 id={`templates-${kind}`} className="dv-templates__group-title">
              {intl.formatMessage(KIND_GROUPS[kind])}
            </h2>
            {ofKind.length === 0 ? (
              <p>{intl.formatMessage(messages.none)}</p>
            ) : (
              <ul className="dv-templates__list">
                {ofKind.map((template) => (
                  <li key={template.id} className={['dv-templates__item', template.retired && 'dv-templates__item--retired'].filter(Boolean).join(' ')}>
                    <h3 className="dv-templates__id">{template.id}</h3>
                    {template.retired && <p className="dv-templates__badge">{intl.formatMessage(messages.retired)}</p>}
                    <div className="dv-templates__languages">
                      {LANGUAGES.map((language) => (
                        <div key={language} className="dv-templates__language" lang={language}>
                          <p className="dv-templates__language-name" lang={intl.locale}>
                            {intl.formatMessage(LANGUAGE_NAMES[language])}
                          </p>
                          <p className="dv-templates__title">{template.title[language]}</p>
                          <p className="dv-templates__body">{template.body[language]}</p>
                        </div>
                      ))}
                    </div>
                    <p className="dv-templates__meta">
                      {intl.formatMessage(messages.changed, {
                        date: intl.formatDate(template.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }),
                        who: template.updatedBy.replace(/^staff:/, ''),
                      })}
                    </p>
                    {canEdit && (
                      <div className="dv-bo-actions">
                        <button type="button" className="dv-bo-link-button" onClick={() => open(template)} disabled={editing !== null}>
                          {intl.formatMessage(messages.edit, { id: template.id })}
                        </button>
                        <button type="button" className="dv-bo-link-button" onClick={() => toggleRetired(template)} disabled={editing !== null || pending !== null} aria-busy={pending === template.id || undefined}>
                          {intl.formatMessage(template.retired ? messages.restore : messages.retire, { id: template.id })}
                        </button>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

interface EditorValues {
  id: string;
  kind: TemplateKind | '';
  titleEs: string;
  bodyEs: string;
  titleEn: string;
  bodyEn: string;
}

const FIELDS: (keyof EditorValues)[] = ['id', 'kind', 'titleEs', 'bodyEs', 'titleEn', 'bodyEn'];

/** The identifier of a new template: its shape, and none of the existing ones (saving it would change that one). */
const newId: Rule = {
  name: 'templateId',
  test(value, context) {
    const { isNew, takenIds } = context.options.context as { isNew: boolean; takenIds: string[] };
    if (!isNew || typeof value !== 'string' || value === '') return true;
    if (!ID_PATTERN.test(value)) return context.createError({ message: { id: messages.idPattern.id } as never });
    return !takenIds.includes(value) || context.createError({ message: { id: messages.idTaken.id } as never });
  },
};

const editorSchema = object({
  id: string().test(rules.required()).test(newId),
  kind: string().test(rules.required()),
  titleEs: string().test(rules.required()).test(rules.maxLength(TEMPLATE_TITLE_MAX)),
  bodyEs: string().test(rules.required()).test(rules.maxLength(TEMPLATE_BODY_MAX)),
  titleEn: string().test(rules.required()).test(rules.maxLength(TEMPLATE_TITLE_MAX)),
  bodyEn: string().test(rules.required()).test(rules.maxLength(TEMPLATE_BODY_MAX)),
});

interface EditorProps {
  /** The template changed; none for a new one. */
  template?: ReviewTemplateItem;
  takenIds: string[];
  onSave(template: TemplateDraft): Promise<void>;
  /** Closes the editor, with what to announce when it saved. */
  onClose(saved?: string): void;
}

function TemplateEditor({ template, takenIds, onSave, onClose }: EditorProps) {
  const intl = useIntl();
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [refusal, setRefusal] = useState('');
  const idInput = useRef<HTMLInputElement>(null);
  const kindSelect = useRef<HTMLSelectElement>(null);
  const titleEs = useRef<HTMLInputElement>(null);
  const bodyEs = useRef<HTMLTextAreaElement>(null);
  const titleEn = useRef<HTMLInputElement>(null);
  const bodyEn = useRef<HTMLTextAreaElement>(null);
  const formik = useFormik<EditorValues>({
    initialValues: {
      id: template?.id ?? '',
      kind: template?.kind ?? '',
      titleEs: template?.title.es ?? '',
      bodyEs: template?.body.es ?? '',
      titleEn: template?.title.en ?? '',
      bodyEn: template?.body.en ?? '',
    },
    validate: (values) => validateSchema(editorSchema, values, { context: { isNew: !template, takenIds } }),
    validateOnChange: false,
    onSubmit: async (values) => {
      setRefusal('');
      const id = values.id.trim();
      try {
        await onSave({
          id,
          kind: values.kind as TemplateKind,
          title: { es: values.titleEs.trim(), en: values.titleEn.trim() },
          body: { es: values.bodyEs.trim(), en: values.bodyEn.trim() },
          retired: template?.retired ?? false,
        });
        onClose(intl.formatMessage(messages.saved, { id }));
      } catch (error) {
        setRefusal(refusalText(intl, error, id));
      }
    },
  });
  const errors = useFieldErrors(formik, FIELDS, { id: idInput, kind: kindSelect, titleEs, bodyEs, titleEn, bodyEn });
  const bind = (name: keyof EditorValues) => ({
    name,
    value: formik.values[name],
    onChange: formik.handleChange,
    onBlur: formik.handleBlur,
    ...errors[name],
  });

  // Opening the editor takes the reader to it.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="dv-templates__editor" aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} tabIndex={-1} className="dv-templates__group-title">
        {template ? intl.formatMessage(messages.editTitle, { id: template.id }) : intl.formatMessage(messages.newTitle)}
      </h2>
      <form noValidate onSubmit={formik.handleSubmit}>
        {template ? (
          <p className="dv-templates__meta">{intl.formatMessage(KIND_NAMES[template.kind])}</p>
        ) : (
          <>
            <TextInput
              label={intl.formatMessage(messages.idLabel)}
              description={intl.formatMessage(messages.idHint)}
              autoComplete="off"
              spellCheck={false}
              ref={idInput}
              {...bind('id')}
            />
            <SelectInput
              label={intl.formatMessage(messages.kindLabel)}
              description={intl.formatMessage(messages.kindHint)}
              placeholder={intl.formatMessage(messages.kindPlaceholder)}
              options={KINDS.map((kind) => ({ value: kind, label: intl.formatMessage(KIND_NAMES[kind]) }))}
              ref={kindSelect}
              {...bind('kind')}
            />
          </>
        )}
        <fieldset className="dv-templates__fieldset">
          <legend className="dv-templates__legend">{intl.formatMessage(messages.spanish)}</legend>
          <TextInput label={intl.formatMessage(messages.titleLabel)} lang="es" ref={titleEs} {...bind('titleEs')} />
          <LongTextField label={intl.formatMessage(messages.bodyLabel)} lang="es" max={TEMPLATE_BODY_MAX} ref={bodyEs} {...bind('bodyEs')} />
        </fieldset>
        <fieldset className="dv-templates__fieldset">
          <legend className="dv-templates__legend">{intl.formatMessage(messages.english)}</legend>
          <TextInput label={intl.formatMessage(messages.titleLabel)} lang="en" ref={titleEn} {...bind('titleEn')} />
          <LongTextField label={intl.formatMessage(messages.bodyLabel)} lang="en" max={TEMPLATE_BODY_MAX} ref={bodyEn} {...bind('bodyEn')} />
        </fieldset>
        <p className="dv-bo-feedback" role="alert">
          {refusal}
        </p>
        <div className="dv-bo-actions">
          <LoadingButton type="submit" loading={formik.isSubmitting}>
            {intl.formatMessage(messages.save)}
          </LoadingButton>
          <button type="button" className="dv-bo-link-button" onClick={() => onClose()}>
            {intl.formatMessage(messages.cancel)}
          </button>
        </div>
      </form>
    </section>
  );
}
