// The predicates as yup tests. Each builder returns a test configuration to pass to `.test()` of any
// schema (`string()`, `mixed()`, `number()`, `array()`...); a failure yields a ValidationMessage:
//
//   userId: string().test(rules.required()).test(rules.minLength(LOGIN_ID_MIN_LENGTH))
//
// Conventions:
// - Only `required` and `requiredIf` reject an empty value (see isEmpty); every other rule accepts it, so an
//   optional field is simply one without `required`.
// - The tests normalise the value they look at but never change the schema's value: lengths, numbers and
//   codes are checked trimmed; identity documents trimmed and upper-cased; passwords exactly as typed.
// - The date rules other than `date` accept a value that is not a valid date (the `date` rule reports it),
//   so a badly typed date gets one message instead of three.

import type { TestConfig, TestContext } from 'yup';

import {
  ADULT_AGE,
  CODE_LENGTH,
  MAX_AGE,
  PASSPORT_MAX_LENGTH,
  PHONE_MIN_DIGITS,
  PRODUCT_PASSWORD_MAX_LENGTH,
  PRODUCT_PASSWORD_MIN_LENGTH,
  STAFF_PASSWORD_MAX_LENGTH,
  STAFF_PASSWORD_MIN_LENGTH,
  URL_MAX_LENGTH,
} from './constants';
import { isPersonName, isPlainText, unprintableCharacters } from './characters';
import { isAdult, isNotFuture, isNotOlderThan, isValidDate, toCalendarDay } from './dates';
import {
  isValidCif,
  isValidIdentificationDocument,
  canonicalIdDocument,
  isValidNif,
  isValidPassport,
} from './identifiers';
import { type ValidationMessageId, validationMessage } from './messages';
import {
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
  isValidStaffPassword,
  isValidUrl,
} from './predicates';
import { isEmpty } from './text';

/** A yup test configuration, usable with `.test()` on any schema. */
export type Rule = TestConfig<unknown, object>;

/** Options of the date rules: where "today" comes from (read at validation time, for tests). */
export interface DateRuleOptions {
  now?: () => Date;
}

type Check = (value: unknown, context: TestContext<object>) => boolean;

function rule(id: ValidationMessageId, check: Check, values?: Record<string, string | number>): Rule {
  return {
    // The message id as test name: never clashes with yup's own exclusive tests (min, max, required...).
    name: id,
    message: () => validationMessage(id, values),
    test(value, context) {
      return isEmpty(value) || check(value, context);
    },
  };
}

function siblingValue(context: TestContext<object>, field: string): unknown {
  const parent: unknown = context.parent;
  if (typeof parent !== 'object' || parent === null) return undefined;
  return (parent as Record<string, unknown>)[field];
}

function dateRule(id: ValidationMessageId, check: (value: unknown, now: Date) => boolean, options: DateRuleOptions, values?: Record<string, string | number>): Rule {
  const now = options.now ?? (() => new Date());
  return rule(id, (value) => toCalendarDay(value) === null || check(value, now()), values);
}

/**
 * Only characters the contract prints (see characters.ts), the ones it cannot named in the message.
 * → `validations.unsupportedCharacters` `{ characters }`
 */
function printable(): Rule {
  return {
    name: 'validations.unsupportedCharacters',
    test(value, context) {
      const found = isEmpty(value) ? [] : unprintableCharacters(value);
      return found.length === 0 || context.createError({ message: validationMessage('validations.unsupportedCharacters', { characters: found.join(' ') }) as never });
    },
  };
}

/** Not empty (see isEmpty: undefined, null, whitespace-only text, NaN, empty list). → `validations.required` */
function required(): Rule {
  return {
    name: 'validations.required',
    message: () => validationMessage('validations.required'),
    test: (value) => !isEmpty(value),
  };
}

/**
 * Required when `predicate(valueOfOtherField, parent)` holds; by default when the sibling field `otherField`
 * is not empty. → `validations.required`
 */
function requiredIf(
  otherField: string,
  predicate: (otherValue: unknown, parent: Record<string, unknown>) => boolean = (otherValue) => !isEmpty(otherValue),
): Rule {
  return {
    name: 'validations.required',
    message: () => validationMessage('validations.required'),
    test(value, context) {
      const parent: unknown = context.parent;
      const siblings = typeof parent === 'object' && parent !== null ? (parent as Record<string, unknown>) : {};
      return !predicate(siblings[otherField], siblings) || !isEmpty(value);
    },
  };
}

export const rules = {
  required,
  requiredIf,

  /** At least `min` characters, trimmed. → `validations.minLength` `{ min }` */
  minLength: (min: number): Rule => rule('validations.minLength', (value) => hasMinLength(value, min), { min }),
  /** At most `max` characters, trimmed. → `validations.maxLength` `{ max }` */
  maxLength: (max: number): Rule => rule('validations.maxLength', (value) => hasMaxLength(value, max), { max }),
  /** A number ≥ `min` (text is trimmed, comma or point decimals). → `validations.minValue` `{ min }` */
  minValue: (min: number): Rule => rule('validations.minValue', (value) => isAtLeast(value, min), { min }),
  /** A number ≤ `max`. → `validations.maxValue` `{ max }` */
  maxValue: (max: number): Rule => rule('validations.maxValue', (value) => isAtMost(value, max), { max }),
  /** A whole number, optionally negative. → `validations.integer` */
  integer: (): Rule => rule('validations.integer', isInteger),
  /** An unsigned decimal number. → `validations.numeric` */
  numeric: (): Rule => rule('validations.numeric', isNumeric),
  /** ASCII letters and digits only. → `validations.alphanumeric` */
  alphanumeric: (): Rule => rule('validations.alphanumeric', isAlphanumeric),
  /**
   * Identical to the sibling field `otherField` (exact comparison, nothing is trimmed: meant for
   * "repeat your password" fields). → `validations.sameAs`
   */
  sameAs: (otherField: string): Rule =>
    rule('validations.sameAs', (value, context) => Object.is(value, siblingValue(context, otherField))),

  /** → `validations.email` */
  email: (): Rule => rule('validations.email', isValidEmail),
  /** http(s) address, at most 50 characters. → `validations.url` `{ max }` */
  url: (): Rule => rule('validations.url', isValidUrl, { max: URL_MAX_LENGTH }),
  /** Up to 13 letters or digits. → `validations.passport` `{ max }` */
  passport: (): Rule => rule('validations.passport', (value) => isValidPassport(value), { max: PASSPORT_MAX_LENGTH }),
  /** The 6-digit verification code. → `validations.userCode` `{ length }` */
  userCode: (): Rule => rule('validations.userCode', isSixDigitCode, { length: CODE_LENGTH }),
  /** Digits only, more than 4. → `validations.phoneNumber` `{ min }` (5) */
  phoneNumber: (): Rule => rule('validations.phoneNumber', isValidPhoneNumber, { min: PHONE_MIN_DIGITS }),
  /** 01000 to 52999. → `validations.postalCode` */
  postalCode: (): Rule => rule('validations.postalCode', isValidSpanishPostalCode),

  /** DNI, NIE or K/L/M NIF of a person, in any spelling of it (`X01234567L` is `X1234567L`). → `validations.nif` */
  nif: (): Rule => rule('validations.nif', (value) => isValidNif(canonicalIdDocument(value))),
  /** Company tax id. → `validations.cif` */
  cif: (): Rule => rule('validations.cif', isValidCif),
  /** DNI, or NIE with 7 or 8 digits. → `validations.identificationDocument` */
  identificationDocument: (): Rule => rule('validations.identificationDocument', isValidIdentificationDocument),

  /** A real dd/mm/yyyy date. → `validations.date` */
  date: (): Rule => rule('validations.date', isValidDate),
  /** Today or earlier. → `validations.notFuture` */
  notFuture: (options: DateRuleOptions = {}): Rule => dateRule('validations.notFuture', isNotFuture, options),
  /** A birth date at least 18 years ago. → `validations.adult` `{ age }` */
  adult: (options: DateRuleOptions = {}): Rule =>
    dateRule('validations.adult', (value, now) => isAdult(value, now, ADULT_AGE), options, { age: ADULT_AGE }),
  /** A birth date giving at most 120 completed years. → `validations.minAge` `{ age }` */
  notOlderThan: (options: DateRuleOptions = {}): Rule =>
    dateRule('validations.minAge', (value, now) => isNotOlderThan(value, now, MAX_AGE), options, { age: MAX_AGE }),

  /**
   * No character that hides text, reorders it or breaks it into lines (controls, bidi overrides, zero-width
   * characters, line separators …): every free-text field has it. → `validations.plainText`
   */
  plainText: (): Rule => rule('validations.plainText', isPlainText),
  printable,
  /** Letters of the scripts the contract prints, spaces, apostrophes, hyphens and dots. → `validations.personName` */
  personName: (): Rule => rule('validations.personName', isPersonName),

  /** The product password. → `validations.diviloPassword` `{ min, max }` */
  productPassword: (): Rule =>
    rule('validations.diviloPassword', isValidProductPassword, {
      min: PRODUCT_PASSWORD_MIN_LENGTH,
      max: PRODUCT_PASSWORD_MAX_LENGTH,
    }),
  /** A staff member's password, by the staff pool's policy. → `validations.staffPassword` `{ min, max }` */
  staffPassword: (): Rule =>
    rule('validations.staffPassword', isValidStaffPassword, {
      min: STAFF_PASSWORD_MIN_LENGTH,
      max: STAFF_PASSWORD_MAX_LENGTH,
    }),
  /** A non-empty PDF file `{ name, type, size }`. → `validations.fileTypePDF` */
  pdfFile: (): Rule => rule('validations.fileTypePDF', isPdfFile),
};
