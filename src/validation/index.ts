// Shared validators of the SPA and the API server. Depends on yup only: no React, no DOM, no Node APIs.

export * from './constants';
export {
  VALIDATION_MESSAGE_IDS,
  type ValidationMessage,
  isValidationMessage,
  validationMessage,
} from './messages';
export { isEmpty, normaliseDocument } from './text';
export { isPersonName, isPlainText, unprintableCharacters } from './characters';
export {
  canonicalIdDocument,
  cifControlDigit,
  dniCheckLetter,
  isValidCif,
  isValidDni,
  isValidIdentificationDocument,
  isValidKlmNif,
  isValidNie,
  isValidNif,
  isValidPassport,
} from './identifiers';
export {
  addYears,
  ageInYears,
  isAdult,
  isNotFuture,
  isNotOlderThan,
  isValidDate,
  parseCalendarDay,
  parseDate,
} from './dates';
export {
  hasMaxLength,
  hasMinLength,
  isAlphanumeric,
  isAtLeast,
  isAtMost,
  isInteger,
  isNumeric,
  isPdfFile,
  isSixDigitCode,
  isValidEmail,
  isValidPhoneNumber,
  isValidProductPassword,
  isValidSpanishPostalCode,
  isValidUrl,
  parseNumber,
} from './predicates';
export { type Rule, rules } from './rules';
export {
  toFieldErrors,
  toFormErrors,
  validateSchema,
} from './validate';
export { type LoginValues, loginSchema } from './schemas';
