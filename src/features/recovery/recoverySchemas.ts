import { object, string } from 'yup';
import { LOGIN_ID_MAX_LENGTH, LOGIN_ID_MIN_LENGTH, rules } from '../../validation';

export interface RecoverInitValues {
  userId: string;
}

export interface RecoverConfirmValues {
  code: string;
  newPassword: string;
  confirmation: string;
}

export const recoverInitSchema = object({
  userId: string().test(rules.required()).test(rules.minLength(LOGIN_ID_MIN_LENGTH)).test(rules.maxLength(LOGIN_ID_MAX_LENGTH)),
});

/** The same product password rule the server applies; the confirmation must match exactly. */
export const recoverConfirmSchema = object({
  code: string().test(rules.required()).test(rules.userCode()),
  newPassword: string().test(rules.required()).test(rules.productPassword()),
  confirmation: string().test(rules.required()).test(rules.sameAs('newPassword')),
});
