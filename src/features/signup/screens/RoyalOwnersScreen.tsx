import { useFormik } from 'formik';
import { createRef, useEffect, useRef, useState, type RefObject } from 'react';
import { useIntl } from 'react-intl';
import { LoadingButton, RadioGroup, TextInput } from '../../../components';
import { useFieldErrors } from '../../../forms/useFieldErrors';
import { describeMessages } from '../../../i18n/messages';
import { canonicalIdDocument } from '../../../validation/identifiers';
import { isValidationMessage, validationMessage } from '../../../validation/messages';
import { OWNERSHIP_KINDS, REAL_OWNER_THRESHOLD, ownerDocumentKey, ownerSchema } from '../../../validation/onboarding';
import { toFormErrors, validateSchema } from '../../../validation/validate';
import type { Owner } from '../../../onboarding/answers';
import { CountrySelect, YesNoGroup } from '../pickers';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useStepForm, type StepField } from '../useStepForm';
import { useSavedAnswers } from '../savedApplication';

const messages = describeMessages({
  lead: {
    id: 'onboarding.royal-owners.lead',
    defaultMessage:
      'The law asks us who really owns the company: every person with more than {threshold}% of its capital or votes, directly or through other companies. If nobody has that much, add its administrators instead.',
  },
  total: { id: 'onboarding.royal-owners.total', defaultMessage: 'Shares declared: {total}% of 100%' },
  empty: { id: 'onboarding.royal-owners.empty', defaultMessage: 'Nobody added yet.' },
  listLabel: { id: 'onboarding.royal-owners.list', defaultMessage: 'People added' },
  addOwner: { id: 'onboarding.royal-owners.addOwner', defaultMessage: 'Add a beneficial owner' },
  addAdministrator: { id: 'onboarding.royal-owners.addAdministrator', defaultMessage: 'Add an administrator' },
  addMe: { id: 'onboarding.royal-owners.addMe', defaultMessage: 'Add myself' },
  edit: { id: 'onboarding.royal-owners.edit', defaultMessage: 'Edit {name}' },
  editShort: { id: 'onboarding.royal-owners.editShort', defaultMessage: 'Edit' },
  removeShort: { id: 'onboarding.royal-owners.removeShort', defaultMessage: 'Remove' },
  remove: { id: 'onboarding.royal-owners.remove', defaultMessage: 'Remove {name}' },
  ownerSummary: {
    id: 'onboarding.royal-owners.ownerSummary',
    defaultMessage: '{role, select, owner {Beneficial owner, {share}% {ownership, select, indirect {indirectly} other {directly}}} other {Administrator}}{pep, select, yes {, politically exposed} other {}}',
  },
  editorOwner: { id: 'onboarding.royal-owners.editor.owner', defaultMessage: 'Beneficial owner' },
  editorAdministrator: { id: 'onboarding.royal-owners.editor.administrator', defaultMessage: 'Administrator' },
  role: { id: 'onboarding.royal-owners.role', defaultMessage: 'This person is' },
  roleOwner: { id: 'onboarding.royal-owners.role.owner', defaultMessage: 'A beneficial owner (more than {threshold}%)' },
  roleAdministrator: { id: 'onboarding.royal-owners.role.administrator', defaultMessage: 'An administrator (nobody has more than {threshold}%)' },
  firstName: { id: 'onboarding.personal-info.firstName', defaultMessage: 'First name' },
  firstSurname: { id: 'onboarding.personal-info.firstSurname', defaultMessage: 'First surname' },
  secondSurname: { id: 'onboarding.personal-info.secondSurname', defaultMessage: 'Second surname (optional)' },
  document: { id: 'onboarding.royal-owners.document', defaultMessage: 'DNI or NIE' },
  documentHint: { id: 'onboarding.royal-owners.documentHint', defaultMessage: 'With its letter, for example 12345678Z or X1234567L' },
  nationality: { id: 'onboarding.personal-info.nationality', defaultMessage: 'Nationality' },
  birthDate: { id: 'onboarding.personal-info.birthDate', defaultMessage: 'Date of birth' },
  dateHint: { id: 'onboarding.date.hint', defaultMessage: 'dd/mm/yyyy, for example 24/05/1988' },
  ownership: { id: 'onboarding.royal-owners.ownership', defaultMessage: 'How does this person hold their share?' },
  direct: { id: 'onboarding.royal-owners.ownership.direct', defaultMessage: 'Directly' },
  indirect: { id: 'onboarding.royal-owners.ownership.indirect', defaultMessage: 'Through other companies' },
  percentage: { id: 'onboarding.royal-owners.percentage', defaultMessage: 'Share of capital or votes (%)' },
  percentageHint: { id: 'onboarding.royal-owners.percentageHint', defaultMessage: 'For example 25,5' },
  pep: { id: 'onboarding.royal-owners.pep', defaultMessage: 'Is this person politically exposed (a public office of importance now or in the last two years, or a close relative of one)?' },
  pepYes: { id: 'onboarding.royal-owners.pepYes', defaultMessage: 'Yes' },
  pepNo: { id: 'onboarding.royal-owners.pepNo', defaultMessage: 'No, they are not' },
  save: { id: 'onboarding.royal-owners.save', defaultMessage: 'Save this person' },
  cancel: { id: 'onboarding.royal-owners.cancel', defaultMessage: 'Cancel' },
  nobody: {
    id: 'onboarding.royal-owners.nobody',
    defaultMessage: 'Add the beneficial owners, or the administrators if nobody holds more than {threshold}%.',
  },
  finishEditing: { id: 'onboarding.royal-owners.finishEditing', defaultMessage: 'Save or cancel the person you are editing first.' },
  indirectOwners: { id: 'onboarding.royal-owners.indirectOwners', defaultMessage: 'Is any of the company held through other companies (indirect ownership)?' },
  indirectYes: { id: 'onboarding.royal-owners.indirectYes', defaultMessage: 'Yes' },
  indirectNo: { id: 'onboarding.royal-owners.indirectNo', defaultMessage: 'No, all directly' },
});

const BLANK: Owner = {
  role: '',
  firstName: '',
  firstSurname: '',
  secondSurname: '',
  identificationDocument: '',
  nationality: 'ES',
  birthDate: '',
  ownership: '',
  percentage: '',
  politicalPosition: undefined,
};

const OWNER_FIELDS: (keyof Owner)[] = ['role', 'firstName', 'firstSurname', 'secondSurname', 'identificationDocument', 'nationality', 'birthDate', 'ownership', 'percentage', 'politicalPosition'];

const share = (owner: Owner) => Number(owner.percentage.replace(',', '.')) || 0;
const sameDocument = (a: string, b: string) => Boolean(a.trim()) && ownerDocumentKey(a) === ownerDocumentKey(b);
const fullName = (owner: Owner) => [owner.firstName, owner.firstSurname, owner.secondSurname].filter(Boolean).join(' ');

/** The message of a field's error (a validation descriptor) in the page's language. */
function useErrorText() {
  const intl = useIntl();
  return (error: unknown) => (isValidationMessage(error) ? intl.formatMessage({ id: error.id }, error.values) : undefined);
}

/** The form of one person: filled in and checked on its own, then saved into the list. */
function OwnerEditor({ owner, others, onSave, onCancel }: { owner: Owner; others: Owner[]; onSave(owner: Owner): void; onCancel(): void }) {
  const intl = useIntl();
  const [refs] = useState(() => Object.fromEntries(OWNER_FIELDS.map((name) => [name, createRef<HTMLInputElement>()])) as Record<keyof Owner, RefObject<HTMLInputElement | null>>);
  const formik = useFormik<Owner>({
    initialValues: owner,
    validate: async (values) => {
      const errors = await validateSchema(ownerSchema(), values);
      // The same person twice is refused here, where the DNI was typed, not only at Continue.
      if (!errors.identificationDocument && others.some((other) => sameDocument(other.identificationDocument, values.identificationDocument))) {
        errors.identificationDocument = validationMessage('validations.duplicateOwner');
      }
      return toFormErrors(errors);
    },
    validateOnChange: false,
    onSubmit: (values) => onSave({ ...values, ...(values.role === 'administrator' ? { ownership: '', percentage: '' } : {}) }),
  });
  const errors = useFieldErrors(formik, OWNER_FIELDS, refs);
  function bind<K extends keyof Owner>(name: K): StepField<Owner[K]> {
    return {
      ref: refs[name],
      name,
      value: formik.values[name],
      onChange: formik.handleChange as StepField<Owner[K]>['onChange'],
      onBlur: () => void formik.setFieldTouched(name, true),
      // A field showing an error is checked again as it changes: the error goes as soon as the value is good.
      set: (value) => void formik.setFieldValue(name, value, errors[name]?.error ?? false),
      clearError: () => formik.setFieldError(name, undefined),
      ...errors[name],
    };
  }
  const text = (name: 'firstName' | 'firstSurname' | 'secondSurname' | 'identificationDocument' | 'birthDate' | 'percentage') => {
    const { ref, value, error, errorText } = bind(name);
    return { ref, name: `owner-${name}`, value: String(value ?? ''), onChange: (event: { target: { value: string } }) => void formik.setFieldValue(name, event.target.value, error), onBlur: () => void formik.setFieldTouched(name, true), error, errorText };
  };
  const { ref: roleRef, value: role, set: setRole, error: roleError, errorText: roleErrorText } = bind('role');
  const { ref: ownershipRef, value: ownership, set: setOwnership, error: ownershipError, errorText: ownershipErrorText } = bind('ownership');
  const threshold = REAL_OWNER_THRESHOLD;
  // The editor replaces the button that opened it: focus goes to its first question still open, not to the page.
  useEffect(() => {
    (owner.role ? refs.firstName : refs.role).current?.focus();
  }, [owner.role, refs]);
  return (
    <fieldset className="dv-owner-editor">
      <legend className="dv-owner-editor__legend">{intl.formatMessage(role === 'administrator' ? messages.editorAdministrator : messages.editorOwner)}</legend>
      <RadioGroup
        legend={intl.formatMessage(messages.role)}
        name="owner-role"
        options={[
          { value: 'owner', label: intl.formatMessage(messages.roleOwner, { threshold }) },
          { value: 'administrator', label: intl.formatMessage(messages.roleAdministrator, { threshold }) },
        ]}
        ref={roleRef}
        value={role}
        onChange={(value) => setRole(value as Owner['role'])}
        error={roleError}
        errorText={roleErrorText}
      />
      <TextInput autoComplete="off" label={intl.formatMessage(messages.firstName)} {...text('firstName')} />
      <div className="dv-step__row">
        <TextInput autoComplete="off" label={intl.formatMessage(messages.firstSurname)} {...text('firstSurname')} />
        <TextInput autoComplete="off" label={intl.formatMessage(messages.secondSurname)} {...text('secondSurname')} />
      </div>
      <TextInput autoCapitalize="characters" spellCheck={false} autoComplete="off" label={intl.formatMessage(messages.document)} description={intl.formatMessage(messages.documentHint)} {...text('identificationDocument')} />
      <CountrySelect label={intl.formatMessage(messages.nationality)} field={bind('nationality')} />
      <TextInput inputMode="numeric" autoComplete="off" label={intl.formatMessage(messages.birthDate)} description={intl.formatMessage(messages.dateHint)} {...text('birthDate')} />
      {role === 'owner' && (
        <>
          <RadioGroup
            legend={intl.formatMessage(messages.ownership)}
            name="owner-ownership"
            options={OWNERSHIP_KINDS.map((value) => ({ value, label: intl.formatMessage(messages[value]) }))}
            ref={ownershipRef}
            value={ownership}
            onChange={(value) => setOwnership(value as Owner['ownership'])}
            error={ownershipError}
            errorText={ownershipErrorText}
          />
          <TextInput inputMode="decimal" autoComplete="off" label={intl.formatMessage(messages.percentage)} description={intl.formatMessage(messages.percentageHint)} {...text('percentage')} />
        </>
      )}
      <YesNoGroup
        legend={intl.formatMessage(messages.pep)}
        name="owner-politicalPosition"
        yes={intl.formatMessage(messages.pepYes)}
        no={intl.formatMessage(messages.pepNo)}
        field={bind('politicalPosition')}
      />
      <div className="dv-owner-editor__actions">
        <LoadingButton loading={formik.isSubmitting} onClick={() => void formik.submitForm()}>
          {intl.formatMessage(messages.save)}
        </LoadingButton>
        <LoadingButton color="gray" onClick={onCancel}>
          {intl.formatMessage(messages.cancel)}
        </LoadingButton>
      </div>
    </fieldset>
  );
}

interface OwnersValues {
  owners: Owner[];
  indirectOwners: boolean | undefined;
}

/**
 * /royal-owners: the real owners (more than 25%), or the administrators when nobody is; each added, edited or
 * removed in its own small form, the shares' total shown as it goes. The applicant can add themselves from what
 * they entered already.
 */
export function RoyalOwnersScreen() {
  const intl = useIntl();
  const errorText = useErrorText();
  const form = useSavedAnswers();
  const [editing, setEditing] = useState<{ index: number | null; owner: Owner } | null>(null);
  const [finishFirst, setFinishFirst] = useState(false);
  // Where focus goes once the editor closes or a row goes away: the saved person's row, else the list.
  const focusAfter = useRef<{ row: number | null } | null>(null);
  const setFocusAfter = (target: { row: number | null }) => {
    focusAfter.current = target;
  };
  const rowRefs = useRef<(HTMLLIElement | null)[]>([]);
  const listFocusRef = useRef<HTMLUListElement>(null);
  // After the render that closed the editor or removed the row.
  useEffect(() => {
    const target = focusAfter.current;
    if (!target) return;
    focusAfter.current = null;
    (rowRefs.current[target.row ?? -1] ?? listFocusRef.current)?.focus();
  });
  const { formik, field } = useStepForm<OwnersValues>({
    step: 'royal-owners',
    fields: ['owners', 'indirectOwners'],
    initialValues: () => ({ owners: form.owners, indirectOwners: form.owners.length > 0 ? form.indirectOwners : undefined }),
  });
  const owners = formik.values.owners;
  const total = owners.reduce((sum, owner) => sum + share(owner), 0);
  const ownerErrors = (formik.errors.owners ?? undefined) as unknown;
  const submitted = formik.submitCount > 0;
  // A rule on the whole list hides its items' errors in the form's errors (and the other way round): each rule is
  // looked at here, so the total over 100 and a person listed twice are both said.
  const totalText = intl.formatMessage({ id: 'validations.ownersTotal' }, { max: 100 });
  const duplicateText = intl.formatMessage({ id: 'validations.duplicateOwner' });
  const listErrors = submitted
    ? [
        ...new Set(
          [
            owners.length === 0 ? intl.formatMessage(messages.nobody, { threshold: REAL_OWNER_THRESHOLD }) : errorText(ownerErrors),
            total > 100 ? totalText : undefined,
          ].filter((text): text is string => Boolean(text)),
        ),
      ]
    : [];
  const errorsOf = (index: number) => {
    if (!submitted) return [];
    const own = Array.isArray(ownerErrors) && ownerErrors[index] ? Object.values(ownerErrors[index] as Record<string, unknown>).map(errorText) : [];
    const listedBefore = owners.slice(0, index).some((other) => sameDocument(other.identificationDocument, owners[index].identificationDocument));
    return [...new Set([...own, listedBefore ? duplicateText : undefined].filter((text): text is string => Boolean(text)))];
  };
  const { ref: listRef } = field('owners');

  // The list is the step's draft as it changes (USER_FORM): a reload before Continue loses nobody.
  const setOwners = (next: Owner[]) => {
    // Once Continue was tried, the list's errors follow it: an error goes as soon as the list is right.
    void formik.setFieldValue('owners', next, formik.submitCount > 0);
  };
  const save = (owner: Owner) => {
    const next = [...owners];
    const index = editing?.index ?? next.length;
    next[index] = owner;
    setOwners(next);
    setEditing(null);
    setFinishFirst(false);
    setFocusAfter({ row: index });
  };
  const cancel = () => {
    setFocusAfter({ row: editing?.index ?? null });
    setEditing(null);
  };
  const me: Owner = {
    ...BLANK,
    firstName: form.firstName,
    firstSurname: form.firstSurname,
    secondSurname: form.secondSurname,
    identificationDocument: form.idType === 'nif' ? canonicalIdDocument(form.id) : '',
    nationality: form.nationality || 'ES',
    birthDate: form.birthDate,
    politicalPosition: form.foundsOrigin ? form.politicalPosition : undefined,
  };
  const alreadyListed = owners.some((owner) => canonicalIdDocument(owner.identificationDocument) === me.identificationDocument);

  return (
    <StepLayout step="royal-owners" lead={intl.formatMessage(messages.lead, { threshold: REAL_OWNER_THRESHOLD })}>
      <p className="dv-owners__total" aria-live="polite">
        {intl.formatMessage(messages.total, { total: intl.formatNumber(total, { maximumFractionDigits: 2 }) })}
      </p>
      <p id="owners-error" className="dv-step__feedback" role="alert" tabIndex={-1} ref={listRef as never}>
        {listErrors.map((text) => (
          <span key={text} className="dv-owners__list-error">
            {text}
          </span>
        ))}
      </p>
      <ul ref={listFocusRef} tabIndex={-1} className="dv-owners" aria-label={intl.formatMessage(messages.listLabel)}>
        {owners.length === 0 && <li className="dv-owners__empty">{intl.formatMessage(messages.empty)}</li>}
        {owners.map((owner, index) => (
          <li
            key={`${owner.identificationDocument}-${index}`}
            ref={(element) => {
              rowRefs.current[index] = element;
            }}
            tabIndex={-1}
            className="dv-owners__item"
          >
            <div className="dv-owners__who">
              <strong>{fullName(owner)}</strong>
              <span>{owner.identificationDocument}</span>
              <span>
                {intl.formatMessage(messages.ownerSummary, {
                  role: owner.role,
                  share: owner.percentage,
                  ownership: owner.ownership,
                  pep: owner.politicalPosition ? 'yes' : 'no',
                })}
              </span>
              {errorsOf(index).map((text) => (
                <span key={text} className="dv-owners__error">
                  {text}
                </span>
              ))}
            </div>
            <div className="dv-owners__actions">
              <button type="button" className="dv-link-button" onClick={() => setEditing({ index, owner })} aria-label={intl.formatMessage(messages.edit, { name: fullName(owner) })}>
                {intl.formatMessage(messages.editShort)}
              </button>
              <button
                type="button"
                className="dv-link-button"
                onClick={() => {
                  setOwners(owners.filter((_, other) => other !== index));
                  setFocusAfter({ row: null });
                }}
                aria-label={intl.formatMessage(messages.remove, { name: fullName(owner) })}
              >
                {intl.formatMessage(messages.removeShort)}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {editing ? (
        <OwnerEditor
          key={editing.index ?? 'new'}
          owner={editing.owner}
          others={owners.filter((_, index) => index !== editing.index)}
          onSave={save}
          onCancel={cancel}
        />
      ) : (
        <div className="dv-owners__add">
          <LoadingButton color="gray" onClick={() => setEditing({ index: null, owner: { ...BLANK, role: 'owner' } })}>
            {intl.formatMessage(messages.addOwner)}
          </LoadingButton>
          <LoadingButton color="gray" onClick={() => setEditing({ index: null, owner: { ...BLANK, role: 'administrator' } })}>
            {intl.formatMessage(messages.addAdministrator)}
          </LoadingButton>
          {!alreadyListed && me.identificationDocument && (
            <LoadingButton color="gray" onClick={() => setEditing({ index: null, owner: me })}>
              {intl.formatMessage(messages.addMe)}
            </LoadingButton>
          )}
        </div>
      )}
      <form
        className="dv-step__form"
        noValidate
        onSubmit={(event) => {
          if (editing) {
            event.preventDefault();
            setFinishFirst(true);
            return;
          }
          formik.handleSubmit(event);
        }}
      >
        <YesNoGroup
          legend={intl.formatMessage(messages.indirectOwners)}
          yes={intl.formatMessage(messages.indirectYes)}
          no={intl.formatMessage(messages.indirectNo)}
          field={field('indirectOwners')}
        />
        {finishFirst && (
          <p className="dv-step__feedback" role="alert">
            {intl.formatMessage(messages.finishEditing)}
          </p>
        )}
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}
