// Business limits used by the validators. The short names in the comments are the ones the original
// product used for the same values.

/** Login id: minimum length (TA). */
export const LOGIN_ID_MIN_LENGTH = 4;
/** Login id: maximum length (IA). */
export const LOGIN_ID_MAX_LENGTH = 25;
/** Oldest acceptable age in completed years (PA): a birth date giving an age above it is rejected. */
export const MAX_AGE = 120;
/** Legal age in Spain (OA). */
export const ADULT_AGE = 18;

/** Product (online banking) password length bounds, inclusive. */
export const PRODUCT_PASSWORD_MIN_LENGTH = 8;
export const PRODUCT_PASSWORD_MAX_LENGTH = 99;
/**
 * The bank's staff's passwords: stricter than the customers' (the staff pool's policy, deploy/lib/identity.ts, and
 * the embedded staff pool's); at most Amazon Cognito's longest.
 */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_MAX_LENGTH = 256;

/** Verification codes (SMS, e-mail) are exactly this many digits. */
export const CODE_LENGTH = 6;
/** Maximum length of a website address. */
export const URL_MAX_LENGTH = 50;
/** Maximum length of a passport number. */
export const PASSPORT_MAX_LENGTH = 13;
/** A phone number has more than 4 digits, i.e. at least this many. */
export const PHONE_MIN_DIGITS = 5;

/** Spanish postal codes: 01 to 52 are the province codes, so 01000 to 52999. */
export const POSTAL_CODE_MIN = 1000;
export const POSTAL_CODE_MAX = 52999;
