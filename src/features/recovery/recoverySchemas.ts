import { object, string } from 'yup';
import { loginSchema, rules } from '../../validation';

export interface RecoverInitValues {
  userId: string;
}

export interface RecoverConfirmValues {
  code: string;
  newPassword: string;
  confirmation: string;
}

/** The ID document number, checked exactly as on the login page. */
export const recoverInitSchema = loginSchema.pick(['userId']);

/** The same product password rule the server applies; the confirmation must match exactly. */
export const recoverConfirmSchema = object({
  code: string().test(rules.required()).test(rules.userCode()),
  newPassword: string().test(rules.required()).test(rules.productPassword()),
  confirmation: string().test(rules.required()).test(rules.sameAs('newPassword')),
});
