import { array, mixed, number, object, string, ValidationError } from 'yup';

import {
  type Rule,
  type ValidationMessage,
  VALIDATION_MESSAGE_IDS,
  loginSchema,
  rules,
  validateSchema,
} from '../../src/validation';

/** The message of validating `{ field: value }` against `{ field: mixed().test(rule) }`, or undefined. */
async function check(rule: Rule, value: unknown, siblings: Record<string, unknown> = {}): Promise<ValidationMessage | undefined> {
  const errors = await validateSchema(object({ field: mixed().test(rule) }), { ...siblings, field: value });
  return errors.field;
}

const NOW = new Date(2024, 5, 15, 12, 0);
const now = () => NOW;

describe('yup integration', () => {
  it('puts the descriptor in ValidationError.errors and .message', async () => {
    const error: unknown = await string()
      .test(rules.minLength(4))
      .validate('abc')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    const failure = error as ValidationError;
    expect(failure.errors).toEqual([{ id: 'validations.minLength', values: { min: 4 } }]);
    expect(failure.message).toEqual({ id: 'validations.minLength', values: { min: 4 } });
  });

  it('gives a fresh descriptor on every failure', async () => {
    const rule = rules.minLength(4);
    const first = await check(rule, 'a');
    const second = await check(rule, 'b');
    expect(first).toEqual(second);
    expect(first).not.toBe(second);
  });

  it('works on string, number and array schemas', async () => {
    const schema = object({
      name: string().test(rules.required()),
      employees: number().test(rules.minValue(1)),
      owners: array().test(rules.required()),
    });
    expect(await validateSchema(schema, { name: ' ', employees: 0, owners: [] })).toEqual({
      name: { id: 'validations.required' },
      employees: { id: 'validations.minValue', values: { min: 1 } },
      owners: { id: 'validations.required' },
    });
    expect(await validateSchema(schema, { name: 'Ana', employees: 3, owners: [{}] })).toEqual({});
  });

  it('never yields an id outside VALIDATION_MESSAGE_IDS', async () => {
    const all: Rule[] = [
      rules.required(), rules.requiredIf('other'), rules.minLength(10), rules.maxLength(1), rules.minValue(100),
      rules.maxValue(0), rules.integer(), rules.numeric(), rules.alphanumeric(), rules.sameAs('other'), rules.email(),
      rules.url(), rules.passport(), rules.userCode(), rules.phoneNumber(), rules.postalCode(), rules.nif(),
      rules.cif(), rules.identificationDocument(), rules.date(), rules.productPassword(), rules.staffPassword(), rules.pdfFile(),
    ];
    const ids: string[] = [...VALIDATION_MESSAGE_IDS];
    for (const rule of all) {
      const message = await check(rule, rule === all[0] || rule === all[1] ? '' : '-x-', { other: 'y' });
      expect({ rule: all.indexOf(rule), failed: message !== undefined }).toEqual({ rule: all.indexOf(rule), failed: true });
      expect(ids).toContain(message?.id);
    }
  });
});

describe('required and requiredIf', () => {
  it('required rejects empty values only', async () => {
    for (const value of [undefined, null, '', '   ', []]) {
      expect(await check(rules.required(), value)).toEqual({ id: 'validations.required' });
    }
    for (const value of ['a', 0, false, ['x']]) expect(await check(rules.required(), value)).toBeUndefined();
  });

  it('requiredIf applies when the other field is filled in, by default', async () => {
    const rule = rules.requiredIf('other');
    expect(await check(rule, '', { other: 'x' })).toEqual({ id: 'validations.required' });
    expect(await check(rule, '', { other: '' })).toBeUndefined();
    expect(await check(rule, 'filled', { other: 'x' })).toBeUndefined();
  });

  it('requiredIf takes a predicate on the other value and the siblings', async () => {
    const rule = rules.requiredIf('personType', (type, parent) => type === 'company' && parent.isCif === true);
    expect(await check(rule, '', { personType: 'company', isCif: true })).toEqual({ id: 'validations.required' });
    expect(await check(rule, '', { personType: 'company', isCif: false })).toBeUndefined();
    expect(await check(rule, '', { personType: 'freelance', isCif: true })).toBeUndefined();
  });
});

describe('rules other than required accept empty values', () => {
  it.each([
    ['minLength', rules.minLength(4)],
    ['email', rules.email()],
    ['identificationDocument', rules.identificationDocument()],
    ['date', rules.date()],
    ['adult', rules.adult({ now })],
    ['sameAs', rules.sameAs('other')],
    ['pdfFile', rules.pdfFile()],
  ])('%s', async (_name, rule) => {
    expect(await check(rule, '', { other: 'x' })).toBeUndefined();
    expect(await check(rule, undefined, { other: 'x' })).toBeUndefined();
  });
});

describe('descriptor ids and values', () => {
  it.each<[string, Rule, unknown, unknown, ValidationMessage]>([
    ['minLength', rules.minLength(4), 'abcd', ' abc ', { id: 'validations.minLength', values: { min: 4 } }],
    ['maxLength', rules.maxLength(25), 'a'.repeat(25), 'a'.repeat(26), { id: 'validations.maxLength', values: { max: 25 } }],
    ['minValue', rules.minValue(1), '1', '0,5', { id: 'validations.minValue', values: { min: 1 } }],
    ['maxValue', rules.maxValue(100), 100, '100.5', { id: 'validations.maxValue', values: { max: 100 } }],
    ['integer', rules.integer(), '-12', '1.5', { id: 'validations.integer' }],
    ['numeric', rules.numeric(), '12,5', '12a', { id: 'validations.numeric' }],
    ['alphanumeric', rules.alphanumeric(), 'Abc123', 'Abc-123', { id: 'validations.alphanumeric' }],
    ['email', rules.email(), 'ana@example.com', 'ana@example', { id: 'validations.email' }],
    ['url', rules.url(), 'https://divilo.es', 'ftp://divilo.es', { id: 'validations.url', values: { max: 50 } }],
    ['passport', rules.passport(), 'AB1234567890C', 'AB1234567890CD', { id: 'validations.passport', values: { max: 13 } }],
    ['userCode', rules.userCode(), '123456', '12345', { id: 'validations.userCode', values: { length: 6 } }],
    ['phoneNumber', rules.phoneNumber(), '12345', '1234', { id: 'validations.phoneNumber', values: { min: 5 } }],
    ['postalCode', rules.postalCode(), '01000', '00999', { id: 'validations.postalCode' }],
    ['nif', rules.nif(), 'k1234567l', '12345678A', { id: 'validations.nif' }],
    ['cif', rules.cif(), ' b12345674 ', 'B12345675', { id: 'validations.cif' }],
    ['identificationDocument', rules.identificationDocument(), 'x1234567l', 'X1234567X', { id: 'validations.identificationDocument' }],
    ['date', rules.date(), '29/02/2024', '31/02/2000', { id: 'validations.date' }],
    ['notFuture', rules.notFuture({ now }), '15/06/2024', '16/06/2024', { id: 'validations.notFuture' }],
    ['adult', rules.adult({ now }), '15/06/2006', '16/06/2006', { id: 'validations.adult', values: { age: 18 } }],
    ['notOlderThan', rules.notOlderThan({ now }), '16/06/1903', '15/06/1903', { id: 'validations.minAge', values: { age: 120 } }],
    [
      'productPassword',
      rules.productPassword(),
      'Abcdef1!',
      'Abc def1!',
      { id: 'validations.diviloPassword', values: { min: 8, max: 99 } },
    ],
    [
      'staffPassword',
      rules.staffPassword(),
      'Abcdefghij1!',
      'Abcdef1!',
      { id: 'validations.staffPassword', values: { min: 12, max: 256 } },
    ],
    [
      'pdfFile',
      rules.pdfFile(),
      { name: 'a.pdf', type: 'application/pdf', size: 10 },
      { name: 'a.pdf', type: 'application/pdf', size: 0 },
      { id: 'validations.fileTypePDF' },
    ],
  ])('%s', async (_name, rule, valid, invalid, expected) => {
    expect(await check(rule, valid)).toBeUndefined();
    expect(await check(rule, invalid)).toEqual(expected);
  });

  it('sameAs compares with the sibling field exactly', async () => {
    const rule = rules.sameAs('password');
    expect(await check(rule, 'Abcdef1!', { password: 'Abcdef1!' })).toBeUndefined();
    expect(await check(rule, 'Abcdef1! ', { password: 'Abcdef1!' })).toEqual({ id: 'validations.sameAs' });
    expect(await check(rule, 'abcdef1!', { password: 'Abcdef1!' })).toEqual({ id: 'validations.sameAs' });
  });
});

describe('date rules', () => {
  it('leave invalid dates to the date rule, so a bad date gets one message', async () => {
    const schema = object({
      birthDate: string()
        .test(rules.required())
        .test(rules.date())
        .test(rules.notFuture({ now }))
        .test(rules.adult({ now }))
        .test(rules.notOlderThan({ now })),
    });
    expect(await validateSchema(schema, { birthDate: '31/02/2000' })).toEqual({ birthDate: { id: 'validations.date' } });
    expect(await validateSchema(schema, { birthDate: '16/06/2024' })).toEqual({ birthDate: { id: 'validations.notFuture' } });
    expect(await validateSchema(schema, { birthDate: '01/01/2010' })).toEqual({
      birthDate: { id: 'validations.adult', values: { age: 18 } },
    });
    expect(await validateSchema(schema, { birthDate: '01/01/1990' })).toEqual({});
  });

  it('read "now" when validating, not when the schema is built', async () => {
    let today = new Date(2024, 5, 15);
    const rule = rules.adult({ now: () => today });
    expect(await check(rule, '16/06/2006')).toEqual({ id: 'validations.adult', values: { age: 18 } });
    today = new Date(2024, 5, 16);
    expect(await check(rule, '16/06/2006')).toBeUndefined();
  });
});

describe('loginSchema', () => {
  it('requires both fields', async () => {
    expect(await validateSchema(loginSchema, { userId: '', password: '' })).toEqual({
      userId: { id: 'validations.required' },
      password: { id: 'validations.required' },
    });
    expect(await validateSchema(loginSchema, {})).toEqual({
      userId: { id: 'validations.required' },
      password: { id: 'validations.required' },
    });
  });

  it('accepts a user id of 4 and 25 characters and rejects 3 and 26', async () => {
    expect(await validateSchema(loginSchema, { userId: 'abcd', password: 'x' })).toEqual({});
    expect(await validateSchema(loginSchema, { userId: 'a'.repeat(25), password: 'x' })).toEqual({});
    expect(await validateSchema(loginSchema, { userId: 'abc', password: 'x' })).toEqual({
      userId: { id: 'validations.minLength', values: { min: 4 } },
    });
    expect(await validateSchema(loginSchema, { userId: 'a'.repeat(26), password: 'x' })).toEqual({
      userId: { id: 'validations.maxLength', values: { max: 25 } },
    });
  });

  it('trims the user id', async () => {
    expect(await validateSchema(loginSchema, { userId: '  abc  ', password: 'x' })).toEqual({
      userId: { id: 'validations.minLength', values: { min: 4 } },
    });
    expect(loginSchema.cast({ userId: '  abcd  ', password: ' secret ' })).toEqual({ userId: 'abcd', password: ' secret ' });
  });
});
