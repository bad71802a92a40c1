import { array, date, mixed, number, object, string } from 'yup';

import {
  VALIDATION_MESSAGE_IDS,
  isValidationMessage,
  rules,
  toFieldErrors,
  toFormErrors,
  validateSchema,
  validationMessage,
} from '../../src/validation';

const ownersSchema = object({
  companyName: string().test(rules.required()),
  website: string().test(rules.url()),
  owners: array()
    .of(
      object({
        name: string().test(rules.required()),
        document: string().test(rules.required()).test(rules.identificationDocument()),
        percentage: string().test(rules.required()).test(rules.numeric()).test(rules.minValue(25)).test(rules.maxValue(100)),
      }),
    )
    .test(rules.required()),
});

describe('validationMessage', () => {
  it('builds descriptors, without values when there are none', () => {
    expect(validationMessage('validations.required')).toEqual({ id: 'validations.required' });
    expect(validationMessage('validations.required')).not.toHaveProperty('values');
    expect(validationMessage('validations.minLength', { min: 4 })).toEqual({ id: 'validations.minLength', values: { min: 4 } });
  });

  it('tells descriptors from other values', () => {
    expect(isValidationMessage({ id: 'validations.required' })).toBe(true);
    expect(isValidationMessage('validations.required')).toBe(false);
    expect(isValidationMessage({ id: 3 })).toBe(false);
    expect(isValidationMessage(null)).toBe(false);
  });
});

describe('VALIDATION_MESSAGE_IDS', () => {
  it('contains every validation message of the specification and the extra rules', () => {
    const expected = [
      'required', 'url', 'email', 'passport', 'numeric', 'alphanumeric', 'integer', 'minValue', 'maxValue', 'date',
      'notFuture', 'adult', 'minAge', 'fileTypePDF', 'diviloPassword', 'identificationDocument', 'phoneNumber', 'userCode',
      'minLength', 'maxLength', 'sameAs', 'postalCode', 'nif', 'cif',
    ].map((rule) => `validations.${rule}`);
    const ids: string[] = [...VALIDATION_MESSAGE_IDS];
    expect(expected.filter((id) => !ids.includes(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('validateSchema', () => {
  const valid = {
    companyName: 'Divilo Servicios SL',
    website: 'https://divilo.es',
    owners: [{ name: 'Ana', document: '12345678Z', percentage: '60' }],
  };

  it('returns an empty object for valid values', async () => {
    expect(await validateSchema(ownersSchema, valid)).toEqual({});
  });

  it('collects every field, with nested paths as keys and the first failure of each field', async () => {
    const errors = await validateSchema(ownersSchema, {
      companyName: '',
      website: 'ftp://divilo.es',
      owners: [
        { name: 'Ana', document: '12345678A', percentage: '10' },
        { name: '', document: 'X1234567L', percentage: '' },
      ],
    });
    expect(errors).toEqual({
      companyName: { id: 'validations.required' },
      website: { id: 'validations.url', values: { max: 50 } },
      'owners[0].document': { id: 'validations.identificationDocument' },
      'owners[0].percentage': { id: 'validations.minValue', values: { min: 25 } },
      'owners[1].name': { id: 'validations.required' },
      'owners[1].percentage': { id: 'validations.required' },
    });
  });

  it('keeps the order of the rules: the first failing rule of a field wins', async () => {
    const errors = await validateSchema(ownersSchema, { ...valid, owners: [{ name: 'Ana', document: '12345678Z', percentage: 'abc' }] });
    expect(errors).toEqual({ 'owners[0].percentage': { id: 'validations.numeric' } });
  });

  it('reports a rule on a whole list under the list name', async () => {
    expect(await validateSchema(ownersSchema, { ...valid, owners: [] })).toEqual({ owners: { id: 'validations.required' } });
  });

  it('maps failures of yup itself to descriptors', async () => {
    expect(await validateSchema(object({ employees: number() }), { employees: 'many' })).toEqual({
      employees: { id: 'validations.numeric' },
    });
    expect(await validateSchema(object({ founded: date() }), { founded: 'yesterday' })).toEqual({
      founded: { id: 'validations.date' },
    });
    expect(await validateSchema(object({ name: string() }), { name: null })).toEqual({ name: { id: 'validations.required' } });
    expect(await validateSchema(object({ name: string().required() }), {})).toEqual({ name: { id: 'validations.required' } });
    expect(await validateSchema(object({ name: string().min(3) }), { name: 'ab' })).toEqual({ name: { id: 'validations.invalid' } });
    expect(await validateSchema(object({ owners: array() }), { owners: 'x' })).toEqual({ owners: { id: 'validations.invalid' } });
  });

  it('reports a failure of the whole value under the empty key', async () => {
    expect(await validateSchema(ownersSchema, 'not an object')).toEqual({ '': { id: 'validations.invalid' } });
  });

  it('rethrows errors that are not validation failures', async () => {
    const broken = object({
      field: mixed().test({
        name: 'broken',
        test: () => {
          throw new Error('boom');
        },
      }),
    });
    await expect(validateSchema(broken, { field: 'x' })).rejects.toThrow('boom');
  });

  it('passes the context to the schema', async () => {
    const schema = object({
      code: string().test({
        name: 'context',
        message: () => validationMessage('validations.userCode'),
        test: (value, context) => value === (context.options.context as { expected?: string } | undefined)?.expected,
      }),
    });
    expect(await validateSchema(schema, { code: '123456' }, { context: { expected: '123456' } })).toEqual({});
    expect(await validateSchema(schema, { code: '123456' }, { context: { expected: '654321' } })).toEqual({
      code: { id: 'validations.userCode' },
    });
  });
});

describe('toFieldErrors', () => {
  it('lists the failures as the server answers them', () => {
    expect(
      toFieldErrors({
        userId: { id: 'validations.minLength', values: { min: 4 } },
        'owners[0].percentage': { id: 'validations.required' },
      }),
    ).toEqual([
      { field: 'userId', id: 'validations.minLength', values: { min: 4 } },
      { field: 'owners[0].percentage', id: 'validations.required' },
    ]);
    expect(toFieldErrors({})).toEqual([]);
  });

  it('leaves values out when there are none', () => {
    const [error] = toFieldErrors({ userId: { id: 'validations.required' } });
    expect(error).not.toHaveProperty('values');
    expect(JSON.parse(JSON.stringify(error))).toEqual({ field: 'userId', id: 'validations.required' });
  });
});

describe('toFormErrors', () => {
  it('nests the keys the way Formik reads them', () => {
    const required = { id: 'validations.required' };
    const nested = toFormErrors({ userId: required, 'owners[1].percentage': required, 'address.city': required });
    expect(nested).toEqual({ userId: required, owners: [undefined, { percentage: required }], address: { city: required } });
    expect(Array.isArray(nested.owners)).toBe(true);
  });

  it('keeps a message on a whole list rather than those of its items', () => {
    const listMessage = { id: 'validations.required' };
    const itemMessage = { id: 'validations.numeric' };
    expect(toFormErrors({ 'owners[0].percentage': itemMessage, owners: listMessage })).toEqual({ owners: listMessage });
  });

  it('drops the failure of the whole value, which no field shows', () => {
    expect(toFormErrors({ '': { id: 'validations.invalid' } })).toEqual({});
  });
});
