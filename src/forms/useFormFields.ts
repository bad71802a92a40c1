import type { FormikProps } from 'formik';
import { createRef, useState, type RefObject } from 'react';
import { useFieldErrors, type FieldErrorProps } from './useFieldErrors';

interface BoundFieldProps extends FieldErrorProps {
  ref: RefObject<HTMLInputElement | null>;
  name: string;
  value: string;
  onChange: FormikProps<object>['handleChange'];
  onBlur: FormikProps<object>['handleBlur'];
}

/**
 * Everything a TextInput or PasswordInput needs for each Formik field: `{...field('userId')}` gives its name,
 * value, handlers, translated error and a ref, through which focus goes to the first invalid field after a
 * failed submit (useFieldErrors).
 */
export function useFormFields<Values extends object>(
  formik: FormikProps<Values>,
  fields: (keyof Values & string)[],
): (name: keyof Values & string) => BoundFieldProps {
  const [refs] = useState(() => Object.fromEntries(fields.map((name) => [name, createRef<HTMLInputElement>()])) as Record<keyof Values & string, RefObject<HTMLInputElement | null>>);
  const errors = useFieldErrors(formik, fields, refs);
  const values = formik.values as Record<string, unknown>;
  return (name) => ({
    ref: refs[name],
    name,
    value: String(values[name] ?? ''),
    onChange: formik.handleChange,
    onBlur: formik.handleBlur,
    ...errors[name],
  });
}
