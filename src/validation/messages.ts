// Message descriptors produced by failed validation rules.
//
// A rule never carries text: it yields `{ id, values }`. The browser translates the id with react-intl
// (the texts live in locales/*.json under the same ids), the server returns it as is in its 400 answers.

/**
 * The English texts shown when the language's file lacks a message (the specification's fallback texts). The
 * locale files say the same things in words of their own.
 */
export const VALIDATION_FALLBACK_TEXTS: Readonly<Record<string, string>> = {
  'validations.minLength': 'This field should be at least {min} characters long',
  'validations.maxLength': 'The maximum length allowed is {max}',
  'validations.minValue': 'The minimum value allowed is {min}',
  'validations.required': 'Value is required',
};

/** What a failed rule yields: a translatable message id plus the ICU values it needs. */
export interface ValidationMessage {
  id: string;
  values?: Record<string, string | number>;
}

/**
 * Every id a rule of this module can yield. `validations.invalid` is the fallback for failures that do not
 * come from a rule of this module (for instance yup's own type checks on a value of the wrong type).
 */
export const VALIDATION_MESSAGE_IDS = [
  'validations.required',
  'validations.minLength',
  'validations.maxLength',
  'validations.minValue',
  'validations.maxValue',
  'validations.integer',
  'validations.numeric',
  'validations.alphanumeric',
  'validations.sameAs',
  'validations.email',
  'validations.url',
  'validations.passport',
  'validations.userCode',
  'validations.nif',
  'validations.cif',
  'validations.identificationDocument',
  'validations.phoneNumber',
  'validations.phoneNotMobile',
  'validations.phoneSpecialRate',
  'validations.phoneCountryNotServed',
  'validations.postalCode',
  'validations.postalCodeAbroad',
  'validations.date',
  'validations.notFuture',
  'validations.adult',
  'validations.minAge',
  'validations.fileTypePDF',
  'validations.diviloPassword',
  'validations.staffPassword',
  'validations.country',
  'validations.choice',
  'validations.consent',
  'validations.documentMissing',
  'validations.realOwnerShare',
  'validations.ownersTotal',
  'validations.duplicateOwner',
  'validations.plainText',
  'validations.unsupportedCharacters',
  'validations.personName',
  'validations.invalid',
] as const;

export type ValidationMessageId = (typeof VALIDATION_MESSAGE_IDS)[number];

/** Builds a descriptor; `values` is left out when there are none. */
export function validationMessage(
  id: ValidationMessageId,
  values?: Record<string, string | number>,
): ValidationMessage {
  return values === undefined ? { id } : { id, values: { ...values } };
}

/** True for anything shaped like a descriptor (used to tell our messages from plain yup strings). */
export function isValidationMessage(value: unknown): value is ValidationMessage {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { id?: unknown; values?: unknown };
  return (
    typeof candidate.id === 'string' &&
    (candidate.values === undefined || (typeof candidate.values === 'object' && candidate.values !== null))
  );
}
