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
export * from './identifiers';
export * from './dates';
export * from './predicates';
export { type Rule, rules } from './rules';
export { toFieldErrors, toFormErrors, validateSchema } from './validate';
export { type LoginValues, loginSchema } from './schemas';
