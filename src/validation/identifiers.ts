// Spanish identity and tax numbers. Every predicate trims and upper-cases its input first and accepts no
// other separators: '12345678-Z' and '12345678 Z' are rejected, ' 12345678z ' is accepted.

import { PASSPORT_MAX_LENGTH } from './constants';
import { normaliseDocument } from './text';

/** Check letters of the DNI, indexed by the number modulo 23. */
const DNI_CHECK_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Control letters of a company tax id (CIF), indexed by the control digit. */
const CIF_CONTROL_LETTERS = 'JABCDEFGHI';

const NIE_PREFIX_DIGITS: Record<string, string> = { X: '0', Y: '1', Z: '2' };

/** The check letter for a string of digits (any length up to 15): its value modulo 23. */
export function dniCheckLetter(digits: string): string {
  if (!/^\d{1,15}$/.test(digits)) throw new Error('dniCheckLetter expects digits only');
  return DNI_CHECK_LETTERS[Number(digits) % 23];
}

/** DNI: 8 digits and the check letter of that number (`12345678Z`). */
export function isValidDni(value: unknown): boolean {
  const text = normaliseDocument(value);
  const match = text === null ? null : /^(\d{8})([A-Z])$/.exec(text);
  return match !== null && dniCheckLetter(match[1]) === match[2];
}

/**
 * NIE as issued today: X, Y or Z, 7 digits and a check letter. The prefix stands for 0, 1 or 2 and the
 * letter is the DNI check letter of the resulting 8-digit number (`X1234567L`, `Y1234567X`, `Z1234567R`).
 */
export function isValidNie(value: unknown): boolean {
  const text = normaliseDocument(value);
  const match = text === null ? null : /^([XYZ])(\d{7})([A-Z])$/.exec(text);
  return match !== null && dniCheckLetter(NIE_PREFIX_DIGITS[match[1]] + match[2]) === match[3];
}

/**
 * NIF of a person without DNI or NIE: K (Spanish under 14), L (Spanish living abroad) or M (foreigner
 * without NIE), 7 digits and the DNI check letter of those 7 digits (the prefix letter does not count).
 */
export function isValidKlmNif(value: unknown): boolean {
  const text = normaliseDocument(value);
  const match = text === null ? null : /^[KLM](\d{7})([A-Z])$/.exec(text);
  return match !== null && dniCheckLetter(match[1]) === match[2];
}

/** Tax id of a person (NIF): a DNI, a NIE or a K/L/M NIF. Company tax ids are {@link isValidCif}. */
export function isValidNif(value: unknown): boolean {
  return isValidDni(value) || isValidNie(value) || isValidKlmNif(value);
}

/**
 * The identification document of the onboarding forms: 8 digits plus the check letter (DNI), or X/Y/Z plus
 * 7 or 8 digits plus the check letter (NIE).
 *
 * With 8 digits after the prefix, the prefix digit (X=0, Y=1, Z=2) is put in front of the 8 digits and the
 * check letter is that 9-digit number modulo 23, the same rule as with 7 digits. For X this is exactly the
 * older 8-digit NIE format (the letter of the 8 digits), and a zero-padded NIE is accepted with the letter of
 * the unpadded one (`X01234567L` like `X1234567L`).
 */
export function isValidIdentificationDocument(value: unknown): boolean {
  if (isValidDni(value)) return true;
  const text = normaliseDocument(value);
  const match = text === null ? null : /^([XYZ])(\d{7,8})([A-Z])$/.exec(text);
  return match !== null && dniCheckLetter(NIE_PREFIX_DIGITS[match[1]] + match[2]) === match[3];
}

/**
 * The one spelling of a person's ID document number that is stored, compared and used as the login name:
 * trimmed and upper-cased, and an X NIE written with 8 digits that start with 0 (`X01234567L`) shortened to
 * its 7 digits (`X1234567L`). Both spellings are the same number (the prefix digit 0 in front of either gives
 * 001234567), so they are the same person. Y and Z NIEs keep their 8 digits: Y0 in front of 1234567 is
 * 101234567, another number than Y's 11234567, and so another document. Anything else is only trimmed and
 * upper-cased (an invalid value stays as typed, for its error).
 */
export function canonicalIdDocument(value: unknown): string {
  const text = normaliseDocument(value) ?? '';
  const padded = /^X0(\d{7})([A-Z])$/.exec(text);
  return padded !== null && isValidIdentificationDocument(text) ? `X${padded[1]}${padded[2]}` : text;
}

/** Organisation types whose CIF ends in a control letter. */
const CIF_LETTER_CONTROL_TYPES = 'PQRSNW';
/** Organisation types whose CIF ends in a control digit. */
const CIF_DIGIT_CONTROL_TYPES = 'ABEH';

/**
 * The control digit of the 7 digits of a CIF: the digits in even positions (2nd, 4th, 6th) are added; each
 * digit in an odd position (1st, 3rd, 5th, 7th) is doubled and the digits of the product are added;
 * the control digit is (10 - total % 10) % 10.
 */
export function cifControlDigit(digits: string): number {
  if (!/^\d{7}$/.test(digits)) throw new Error('cifControlDigit expects 7 digits');
  let total = 0;
  for (let index = 0; index < 7; index += 1) {
    const digit = Number(digits[index]);
    if (index % 2 === 1) {
      total += digit;
    } else {
      const doubled = digit * 2;
      total += Math.floor(doubled / 10) + (doubled % 10);
    }
  }
  return (10 - (total % 10)) % 10;
}

/**
 * Company tax id (CIF): the organisation letter (ABCDEFGHJNPQRSUVW), 7 digits and the control character.
 * Types P, Q, R, S, N and W need the control letter (`JABCDEFGHI`[digit]), types A, B, E and H the control
 * digit, the other types accept either.
 */
export function isValidCif(value: unknown): boolean {
  const text = normaliseDocument(value);
  const match = text === null ? null : /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(text);
  if (match === null) return false;
  const [, type, digits, control] = match;
  const digit = cifControlDigit(digits);
  const digitMatches = control === String(digit);
  const letterMatches = control === CIF_CONTROL_LETTERS[digit];
  if (CIF_LETTER_CONTROL_TYPES.includes(type)) return letterMatches;
  if (CIF_DIGIT_CONTROL_TYPES.includes(type)) return digitMatches;
  return digitMatches || letterMatches;
}

/** Passport number: 1 to `maxLength` ASCII letters or digits after trimming (case is ignored). */
export function isValidPassport(value: unknown, maxLength = PASSPORT_MAX_LENGTH): boolean {
  const text = normaliseDocument(value);
  return text !== null && text.length >= 1 && text.length <= maxLength && /^[A-Z0-9]+$/.test(text);
}
