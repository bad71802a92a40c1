import { object, string } from 'yup';
import { rules } from '../../validation';

export interface CodeValues {
  code: string;
}

/** A one-time code: required, six digits (spaces around it are ignored). */
export const codeSchema = object({ code: string().test(rules.required()).test(rules.userCode()) });
