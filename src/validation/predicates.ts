// General-purpose predicates: numbers, codes, contact data, passwords and files. Each one takes any value
// (a form field or a request body field) and returns false for values of the wrong type. Text inputs are
// trimmed before checking, except passwords, which are checked exactly as typed.

import {
  CODE_LENGTH,
  PHONE_MIN_DIGITS,
  POSTAL_CODE_MAX,
  POSTAL_CODE_MIN,
  PRODUCT_PASSWORD_MAX_LENGTH,
  PRODUCT_PASSWORD_MIN_LENGTH,
  STAFF_PASSWORD_MAX_LENGTH,
  STAFF_PASSWORD_MIN_LENGTH,
  URL_MAX_LENGTH,
} from './constants';
import { asText, characterCount } from './text';

/**
 * A number, or a text holding a plain decimal number: optional sign, digits, and an optional decimal part
 * after a point or a comma (`'1234'`, `'-3'`, `'12,5'`, `'12.5'`). No thousands separators or exponents.
 * Returns `null` for anything else.
 */
export function parseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = asText(value);
  if (text === null || !/^[+-]?\d+([.,]\d+)?$/.test(text)) return null;
  return Number(text.replace(',', '.'));
}

/** An unsigned decimal number: digits with an optional decimal part (`'0'`, `'42'`, `'3,5'`, `'3.5'`). */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0;
  const text = asText(value);
  return text !== null && /^\d+([.,]\d+)?$/.test(text);
}

/** A whole number, optionally negative (`'12'`, `'-3'`; not `'1.0'` nor `'+3'`). */
export function isInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  const text = asText(value);
  return text !== null && /^-?\d+$/.test(text);
}

/** ASCII letters and digits only, at least one. */
export function isAlphanumeric(value: unknown): boolean {
  const text = asText(value);
  return text !== null && /^[A-Za-z0-9]+$/.test(text);
}

/** At least `min` characters (code points) after trimming. */
export function hasMinLength(value: unknown, min: number): boolean {
  const text = asText(value);
  return text !== null && characterCount(text) >= min;
}

/** At most `max` characters (code points) after trimming. */
export function hasMaxLength(value: unknown, max: number): boolean {
  const text = asText(value);
  return text !== null && characterCount(text) <= max;
}

/** A number (see {@link parseNumber}) greater than or equal to `min`. */
export function isAtLeast(value: unknown, min: number): boolean {
  const number = parseNumber(value);
  return number !== null && number >= min;
}

/** A number (see {@link parseNumber}) less than or equal to `max`. */
export function isAtMost(value: unknown, max: number): boolean {
  const number = parseNumber(value);
  return number !== null && number <= max;
}

/** Exactly 6 digits (`'012345'`), the verification codes sent by SMS or e-mail. */
export function isSixDigitCode(value: unknown): boolean {
  const text = asText(value);
  return text !== null && new RegExp(`^\\d{${CODE_LENGTH}}$`).test(text);
}

/** Digits only and more than 4 of them. No spaces, `+` or separators. */
export function isValidPhoneNumber(value: unknown): boolean {
  const text = asText(value);
  return text !== null && /^\d+$/.test(text) && text.length >= PHONE_MIN_DIGITS;
}

/** Five digits from 01000 to 52999 (the first two are the province, 01 to 52). */
export function isValidSpanishPostalCode(value: unknown): boolean {
  const text = asText(value);
  if (text === null || !/^\d{5}$/.test(text)) return false;
  const number = Number(text);
  return number >= POSTAL_CODE_MIN && number <= POSTAL_CODE_MAX;
}

/**
 * The product password: 8 to 99 characters with at least one lowercase letter, one uppercase letter, one
 * digit and one special character (anything that is not a letter, a digit or whitespace), and no whitespace
 * anywhere. Not trimmed: a leading or trailing space is whitespace and makes it invalid.
 */
export function isValidProductPassword(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const length = characterCount(value);
  return (
    length >= PRODUCT_PASSWORD_MIN_LENGTH &&
    length <= PRODUCT_PASSWORD_MAX_LENGTH &&
    !/\s/u.test(value) &&
    /\p{Ll}/u.test(value) &&
    /\p{Lu}/u.test(value) &&
    /\p{Nd}/u.test(value) &&
    /[^\p{L}\p{N}\s]/u.test(value)
  );
}

/** The special characters Amazon Cognito's password policy counts (a space between other characters counts too). */
const COGNITO_SPECIAL_CHARACTERS = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/;

/**
 * A staff member's password, as the staff pool's policy takes it (Amazon Cognito's rules, stricter than the
 * product password's): 12 to 256 characters with a lowercase and an uppercase letter of A to Z, a digit 0 to 9
 * and one of Cognito's special characters, and no whitespace at either end. Letters such as ñ are allowed but
 * count for no class, as in Cognito.
 */
export function isValidStaffPassword(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const length = characterCount(value);
  return (
    length >= STAFF_PASSWORD_MIN_LENGTH &&
    length <= STAFF_PASSWORD_MAX_LENGTH &&
    !/^\s|\s$/u.test(value) &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /[0-9]/.test(value) &&
    COGNITO_SPECIAL_CHARACTERS.test(value)
  );
}

/**
 * A website address: at most 50 characters after trimming, written with an explicit `http://` or `https://`,
 * accepted by the URL parser, with a host name containing a dot, no user name or password and no whitespace.
 */
export function isValidUrl(value: unknown): boolean {
  const text = asText(value);
  if (text === null || text.length === 0 || text.length > URL_MAX_LENGTH) return false;
  if (/\s/.test(text) || !/^https?:\/\//i.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  const host = url.hostname;
  return host.includes('.') && !host.startsWith('.') && !host.endsWith('.') && !host.includes('..');
}

const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * An e-mail address after trimming: an ASCII local part (no leading, trailing or double dots, at most 64
 * characters), an `@` and a domain with at least two labels and an alphabetic top-level domain; at most 254
 * characters in all.
 */
export function isValidEmail(value: unknown): boolean {
  const text = asText(value);
  if (text === null || text.length > 254 || !EMAIL_PATTERN.test(text)) return false;
  return text.indexOf('@') <= 64;
}

/** The parts of an uploaded file that the PDF rule looks at; a browser `File` has them. */
interface FileLike {
  name: string;
  type: string;
  size: number;
}

/** A non-empty file declared as `application/pdf` whose name ends in `.pdf` (any case). */
export function isPdfFile(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { name, type, size } = value as Partial<Record<keyof FileLike, unknown>>;
  return (
    typeof name === 'string' &&
    typeof type === 'string' &&
    typeof size === 'number' &&
    type.trim().toLowerCase() === 'application/pdf' &&
    Number.isFinite(size) &&
    size > 0 &&
    /\.pdf$/i.test(name.trim())
  );
}
