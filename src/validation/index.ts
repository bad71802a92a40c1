// Shared validators of the SPA and the API server. Depends on yup only: no React, no DOM, no Node APIs.

export * from './constants';
export {
  VALIDATION_MESSAGE_IDS,
  type ValidationMessage,
  type ValidationMessageId,
  isValidationMessage,
  validationMessage,
} from './messages';
export { asText, characterCount, isEmpty, normaliseDocument } from './text';
export { isPersonName, isPlainText, isPrintableCharacter, unprintableCharacters } from './characters';
export {
  CIF_CONTROL_LETTERS,
  DNI_CHECK_LETTERS,
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
  type CalendarDay,
  addYears,
  ageInYears,
  compareDays,
  daysInMonth,
  isAdult,
  isLeapYear,
  isNotFuture,
  isNotOlderThan,
  isValidDate,
  parseCalendarDay,
  parseDate,
  toCalendarDay,
} from './dates';
export {
  type FileLike,
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
export { type DateRuleOptions, type Rule, rules } from './rules';
export {
  type FieldError,
  ROOT_ERROR_KEY,
  type ValidatableSchema,
  toFieldErrors,
  toFormErrors,
  validateSchema,
} from './validate';
export { type LoginValues, loginSchema } from './schemas';
