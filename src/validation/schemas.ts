// Ready-made schemas for forms whose rules are fixed by the product, shared by the SPA and the server.

import { object, string } from 'yup';

import { LOGIN_ID_MAX_LENGTH, LOGIN_ID_MIN_LENGTH } from './constants';
import { rules } from './rules';

/**
 * Login: the user id is required and 4 to 25 characters long, the password is required. The checks trim
 * both values; casting the schema trims the user id too. The password is never altered.
 */
export const loginSchema = object({
  userId: string()
    .trim()
    .test(rules.required())
    .test(rules.minLength(LOGIN_ID_MIN_LENGTH))
    .test(rules.maxLength(LOGIN_ID_MAX_LENGTH)),
  password: string().test(rules.required()),
});

export interface LoginValues {
  userId: string;
  password: string;
}
