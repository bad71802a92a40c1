// The JSON shape of a step's body, read from the step's shared yup schema: its fields, their types, and bounds
// that keep a body small before the schema's own rules run. Nothing here is declared twice: a field the schema
// does not name is refused (additionalProperties), and a new field of the schema is taken.
import type { AnyObjectSchema, SchemaDescription, SchemaFieldDescription } from 'yup';

/** The longest text a field takes in a body (a name, an address line); owners' fields are shorter. */
const TEXT_MAX = 200;
const OWNER_TEXT_MAX = 100;
/** The most items a list takes unless its schema says fewer (`meta({ maxItems })`): every country there is. */
const LIST_MAX = 250;

type JsonShape = Record<string, unknown>;

const isCountryList = (inner: SchemaDescription) => inner.tests.some((test) => test.name === 'validations.country');

function shapeOf(field: SchemaFieldDescription, textMax: number): JsonShape {
  const description = field as SchemaDescription & { innerType?: SchemaFieldDescription; fields?: Record<string, SchemaFieldDescription>; meta?: { maxItems?: number } };
  switch (description.type) {
    case 'string':
      return { type: 'string', maxLength: textMax };
    case 'boolean':
      return { type: 'boolean' };
    case 'array': {
      const inner = description.innerType as SchemaDescription & { fields?: Record<string, SchemaFieldDescription> };
      const maxItems = description.meta?.maxItems ?? LIST_MAX;
      if (inner.type === 'object') return { type: 'array', maxItems, items: objectShape(inner.fields ?? {}, OWNER_TEXT_MAX) };
      // A country is its two-letter code.
      return { type: 'array', maxItems, items: { type: 'string', maxLength: isCountryList(inner) ? 2 : textMax } };
    }
    default:
      throw new Error(`A step's body has no JSON shape for a yup ${description.type}`);
  }
}

function objectShape(fields: Record<string, SchemaFieldDescription>, textMax: number): JsonShape {
  return { type: 'object', additionalProperties: false, properties: Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, shapeOf(field, textMax)])) };
}

/** The JSON schema of a body the shared `schema` validates: one property per field of it, no other. */
export function bodyShapeOf(schema: AnyObjectSchema): JsonShape {
  return objectShape(schema.describe().fields, TEXT_MAX);
}

/** The fields of the body, and which take a list (sent empty when missing, as a blank form's are). */
export function bodyFieldsOf(schema: AnyObjectSchema): { name: string; list: boolean; flag: boolean }[] {
  return Object.entries(schema.describe().fields).map(([name, field]) => ({ name, list: field.type === 'array', flag: field.type === 'boolean' }));
}
