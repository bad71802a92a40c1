import type { FormikErrors, FormikProps } from 'formik';
import { useEffect, useRef, type RefObject } from 'react';
import { useIntl } from 'react-intl';
import { isValidationMessage } from '../validation';
import { VALIDATION_FALLBACK_TEXTS } from '../validation/messages';

export interface FieldErrorProps {
  error: boolean;
  errorText?: string;
}

/**
 * The error props of each field, translated: shown once the field was changed and left, or the form submitted. After a
 * submit that fails validation, focus moves to the first invalid field (WCAG 3.3.1).
 */
export function useFieldErrors<Values extends object>(
  formik: FormikProps<Values> | Pick<FormikProps<Values>, 'errors' | 'touched' | 'submitCount' | 'isSubmitting' | 'isValidating' | 'values' | 'initialValues'>,
  fields: (keyof Values & string)[],
  refs: Partial<Record<keyof Values & string, RefObject<HTMLElement | null>>>,
): Record<keyof Values & string, FieldErrorProps> {
  const intl = useIntl();
  const errors = formik.errors as FormikErrors<Values> & Record<string, unknown>;
  const touched = formik.touched as Record<string, unknown>;
  const values = formik.values as Record<string, unknown>;
  const initialValues = formik.initialValues as Record<string, unknown>;

  const handledSubmit = useRef(0);
  useEffect(() => {
    if (formik.submitCount === handledSubmit.current || formik.isSubmitting || formik.isValidating) return;
    handledSubmit.current = formik.submitCount;
    const first = fields.find((field) => errors[field]);
    if (first) refs[first]?.current?.focus();
  }, [formik.submitCount, formik.isSubmitting, formik.isValidating, errors, fields, refs]);

  const result = {} as Record<keyof Values & string, FieldErrorProps>;
  for (const field of fields) {
    const error = errors[field];
    // Not while someone merely tabs through: a field shows its error once it was changed and left, or after a submit.
    const changed = !Object.is(values[field], initialValues[field]);
    const visible = Boolean(error) && ((Boolean(touched[field]) && changed) || formik.submitCount > 0);
    result[field] = error && visible
      ? { error: true, errorText: isValidationMessage(error) ? intl.formatMessage({ id: error.id, defaultMessage: VALIDATION_FALLBACK_TEXTS[error.id] }, error.values) : String(error) }
      : { error: false };
  }
  return result;
}
