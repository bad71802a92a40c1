// The mobile the bank texts: the numbers SMS pumping used (premium-rate, far-away countries) and the numbers an
// applicant really has, through the validator the phone step and the server share.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateSchema } from '../../src/validation';
import { contactPhoneSchema, phoneProblem, toE164 } from '../../src/validation/phone';

const SERVED = (JSON.parse(readFileSync(path.join(__dirname, '../../server/data/sms-countries.json'), 'utf8')) as { countries: { iso2: string }[] }).countries.map((c) => c.iso2);

describe('phoneProblem', () => {
  it.each([
    ['612345678', 'ES'],
    ['712 34 56 78', 'ES'],
    ['+34 612 345 678', 'FR'],
    ['06 12 34 56 78', 'FR'],
    ['07400 123456', 'GB'],
    ['0151 23456789', 'DE'],
    ['312 345 6789', 'IT'],
  ])('takes the mobile %s (%s)', (number, country) => {
    expect(phoneProblem(number, country, SERVED)).toBeUndefined();
  });

  it.each([
    ['806123456', 'ES', 'Spanish premium rate (806)'],
    ['803123456', 'ES', 'Spanish premium rate (803)'],
    ['902123456', 'ES', 'Spanish shared cost (902)'],
    ['900123456', 'ES', 'Spanish free phone (900)'],
    ['518123456', 'ES', 'Spanish universal access (51)'],
    ['0891234567', 'FR', 'French premium rate (089)'],
    ['07012345678', 'GB', 'British personal number (070)'],
  ])('refuses %s (%s) as special-rate: %s', (number, country) => {
    expect(phoneProblem(number, country, SERVED)).toBe('validations.phoneSpecialRate');
  });

  it.each([
    ['912345678', 'ES', 'a Spanish fixed line'],
    ['09 12 34 56 78', 'FR', 'French VoIP (09)'],
    ['085 123 4567', 'NL', 'Dutch VoIP (085)'],
  ])('refuses %s (%s) as not a mobile: %s', (number, country) => {
    expect(phoneProblem(number, country, SERVED)).toBe('validations.phoneNotMobile');
  });

  it.each([
    ['+53 5 1234567', 'ES', 'Cuba'],
    ['+252 61 2345678', 'ES', 'Somalia'],
    ['+670 7721 2345', 'ES', 'Timor-Leste'],
    ['+44 7624 123456', 'GB', 'the Isle of Man, +44 but not the UK'],
    ['201 555 0123', 'US', 'the United States'],
  ])('refuses the mobile %s (%s) of a country the bank does not text: %s', (number, country) => {
    expect(phoneProblem(number, country, SERVED)).toBe('validations.phoneCountryNotServed');
  });

  it('takes a number libphonenumber cannot tell from a fixed line (FIXED_LINE_OR_MOBILE) in a served country', () => {
    expect(phoneProblem('201 555 0123', 'US', ['US'])).toBeUndefined();
  });

  it.each([
    ['905123456', 'ES', 'Spanish televoting (905): no valid number in the numbering plan'],
    ['12345', 'ES', 'too short'],
    ['61234567', 'ES', 'a digit missing'],
    ['phone', 'ES', 'not a number'],
    ['612345678', 'XX', 'no such country'],
  ])('refuses %s (%s) as no valid number: %s', (number, country) => {
    expect(phoneProblem(number, country, SERVED)).toBe('validations.phoneNumber');
  });

  it('gives the number in E.164', () => {
    expect(toE164('612 34 56 78', 'ES')).toBe('+34612345678');
    expect(toE164('+33 6 12 34 56 78', 'ES')).toBe('+33612345678');
  });
});

describe('contactPhoneSchema', () => {
  const schema = contactPhoneSchema(SERVED);

  it('puts each problem next to its field, with its own message', async () => {
    expect(await validateSchema(schema, { telephoneCountry: 'ES', telephoneNumber: '806 123 456' })).toEqual({ telephoneNumber: { id: 'validations.phoneSpecialRate' } });
    expect(await validateSchema(schema, { telephoneCountry: 'ES', telephoneNumber: '912 345 678' })).toEqual({ telephoneNumber: { id: 'validations.phoneNotMobile' } });
    expect(await validateSchema(schema, { telephoneCountry: 'ES', telephoneNumber: '+53 5 1234567' })).toEqual({ telephoneNumber: { id: 'validations.phoneCountryNotServed' } });
    expect(await validateSchema(schema, { telephoneCountry: 'ES', telephoneNumber: '12345' })).toEqual({ telephoneNumber: { id: 'validations.phoneNumber', values: { min: 5 } } });
    expect(await validateSchema(schema, { telephoneCountry: '', telephoneNumber: '' })).toEqual({
      telephoneCountry: { id: 'validations.required' },
      telephoneNumber: { id: 'validations.required' },
    });
  });

  it('refuses a prefix of a country the bank does not text, whatever the number', async () => {
    expect(await validateSchema(schema, { telephoneCountry: 'CU', telephoneNumber: '5 1234567' })).toMatchObject({ telephoneCountry: { id: 'validations.phoneCountryNotServed' } });
  });

  it('follows the list it is given: a country taken off it is refused', async () => {
    expect(await validateSchema(contactPhoneSchema(['ES']), { telephoneCountry: 'FR', telephoneNumber: '06 12 34 56 78' })).toEqual({
      telephoneCountry: { id: 'validations.phoneCountryNotServed' },
      telephoneNumber: { id: 'validations.phoneCountryNotServed' },
    });
    expect(await validateSchema(contactPhoneSchema(['ES']), { telephoneCountry: 'ES', telephoneNumber: '612 345 678' })).toEqual({});
  });
});
