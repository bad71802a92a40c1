import { object, string } from 'yup';
import { LOGIN_ID_MAX_LENGTH, LOGIN_ID_MIN_LENGTH, rules } from '../../validation';

export interface LoginValues {
  userId: string;
  password: string;
}

/** The ID document number as the identity service knows it: no surrounding spaces, upper case. */
export function normaliseUserId(userId: string): string {
  return userId.trim().toUpperCase();
}

/** userId required, 4 to 25 characters once trimmed; password required (checked as typed, never trimmed). */
export const loginSchema = object({
  userId: string()
    .test(rules.required())
    .test(rules.minLength(LOGIN_ID_MIN_LENGTH))
    .test(rules.maxLength(LOGIN_ID_MAX_LENGTH)),
  password: string().test(rules.required()),
});
