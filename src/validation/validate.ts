// Running a yup schema and turning its failures into descriptors, for Formik and for the server's 400 answers.

import { type ValidateOptions, ValidationError } from 'yup';

import { type ValidationMessage, isValidationMessage, validationMessage } from './messages';

/** Anything with yup's asynchronous `validate` (every yup schema). */
export interface ValidatableSchema {
  validate(value: unknown, options?: ValidateOptions<object>): Promise<unknown>;
}

/** One failed field, as the server answers it: `400 { code: 'VALIDATION_FAILED', errors: FieldError[] }`. */
export interface FieldError {
  field: string;
  id: string;
  values?: Record<string, string | number>;
}

/** Key under which a failure of the whole value (not of one of its fields) is reported. */
const ROOT_ERROR_KEY = '';

/**
 * What a failure that does not carry one of our descriptors becomes: yup's own presence checks map to
 * `validations.required`, its type checks to `validations.numeric` (numbers), `validations.date` (dates) or
 * `validations.invalid`, anything else to `validations.invalid`.
 */
function toValidationMessage(error: ValidationError): ValidationMessage {
  const raw: unknown = error.errors[0];
  if (isValidationMessage(raw)) return raw.values === undefined ? { id: raw.id } : { id: raw.id, values: raw.values };
  switch (error.type) {
    case 'required':
    case 'optionality':
    case 'nullable':
    case 'defined':
      return validationMessage('validations.required');
    case 'typeError': {
      const schemaType = error.params?.type;
      if (schemaType === 'number') return validationMessage('validations.numeric');
      if (schemaType === 'date') return validationMessage('validations.date');
      return validationMessage('validations.invalid');
    }
    default:
      return validationMessage('validations.invalid');
  }
}

/**
 * Validates `values` against `schema` with every failure collected (abortEarly false) and returns the first
 * failure of each field, keyed by its yup path (`userId`, `owners[0].percentage`; `''` for the whole value).
 * An empty object means valid. Errors that are not validation failures (a test that throws) are rethrown.
 */
export async function validateSchema(
  schema: ValidatableSchema,
  values: unknown,
  options: Pick<ValidateOptions<object>, 'context'> = {},
): Promise<Record<string, ValidationMessage>> {
  try {
    await schema.validate(values, { ...options, abortEarly: false });
    return {};
  } catch (error) {
    if (!ValidationError.isError(error)) throw error;
    const failures = error.inner.length > 0 ? error.inner : [error];
    const result: Record<string, ValidationMessage> = {};
    for (const failure of failures) {
      const key = failure.path ?? ROOT_ERROR_KEY;
      if (!(key in result)) result[key] = toValidationMessage(failure);
    }
    return result;
  }
}

/** The server's list form: `[{ field, id, values? }]`, in the order of the schema's fields. */
export function toFieldErrors(errors: Record<string, ValidationMessage>): FieldError[] {
  return Object.entries(errors).map(([field, message]) =>
    message.values === undefined ? { field, id: message.id } : { field, id: message.id, values: message.values },
  );
}

/**
 * The flat result of {@link validateSchema} nested the way Formik looks errors up (`getIn(errors, name)`):
 * `{ 'owners[0].percentage': m }` becomes `{ owners: [{ percentage: m }] }`. Flat keys work as they are for
 * forms without nested fields.
 */
export function toFormErrors(errors: Record<string, ValidationMessage>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const entries = Object.entries(errors).map(([path, message]) => ({ keys: path.match(/[^.[\]"']+/g) ?? [], message }));
  // Shallow paths first, so that a message on a whole list is kept whatever the order of the failures.
  entries.sort((a, b) => a.keys.length - b.keys.length);
  for (const { keys, message } of entries) {
    let node: Record<string, unknown> = result;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index];
      if (index === keys.length - 1) {
        if (node[key] === undefined) node[key] = message;
        break;
      }
      const child = node[key];
      // A message on a parent (a rule on a whole list) wins over the messages of its items.
      if (isValidationMessage(child)) break;
      if (typeof child !== 'object' || child === null) node[key] = /^\d+$/.test(keys[index + 1]) ? [] : {};
      node = node[key] as Record<string, unknown>;
    }
  }
  return result;
}
