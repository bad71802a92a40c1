// The rules on the characters of typed text: nothing that hides text or breaks it into lines, anywhere; only
// what the contract prints in the fields it prints; names made of letters.
import {
  addressSchema,
  aboutCompanyInfoSchema,
  ownerSchema,
  personalInfoSchema,
  tellUsMoreFreelanceSchema,
} from '../../src/validation/onboarding';
import { isPersonName, isPlainText, unprintableCharacters, validateSchema } from '../../src/validation';

/** Every character that hides text, reorders it or breaks it into lines, as the attacks use them. */
const HIDDEN = {
  'line feed': '\n',
  'carriage return': '\r',
  tab: '\t',
  'vertical tab': '\u000b',
  escape: '\u001b',
  null: '\u0000',
  delete: '\u007f',
  'next line (C1)': '\u0085',
  'C1 control': '\u009b',
  'line separator': '\u2028',
  'paragraph separator': '\u2029',
  'left-to-right embedding': '\u202a',
  'right-to-left override': '\u202e',
  'left-to-right isolate': '\u2066',
  'pop directional isolate': '\u2069',
  'zero-width space': '\u200b',
  'zero-width joiner': '\u200d',
  'right-to-left mark': '\u200f',
  'soft hyphen': '\u00ad',
  'byte order mark': '\ufeff',
  'word joiner': '\u2060',
  'private use': '\ue000',
  'lone surrogate': '\ud800',
} as const;

describe('isPlainText', () => {
  it.each(Object.entries(HIDDEN))('refuses a %s inside the text', (_name, char) => {
    expect(isPlainText(`Ana${char}García`)).toBe(false);
  });

  it('takes text in every script, accents, punctuation and no-break spaces', () => {
    for (const text of ['Zoë Łukasiewicz O’Neill', 'Calle de Sant Antoni, 12, 3º 2ª', 'Ελένη', 'Пётр', '王小明', 'Gel·labert', 'Rue\u00a0du Port', 'Nguyễn']) {
      expect(isPlainText(text)).toBe(true);
    }
  });
});

describe('unprintableCharacters', () => {
  it('names, once each and in order, the characters the contract cannot print', () => {
    expect(unprintableCharacters('Ana 😀 김 😀 ا')).toEqual(['😀', '김', 'ا']);
    expect(unprintableCharacters('Zoë Łukasiewicz O’Neill 王 Ελένη Пётр ß ñ ç')).toEqual([]);
    // Accents typed as separate characters are composed first: "é" as e + U+0301 prints.
    expect(unprintableCharacters('Jose\u0301')).toEqual([]);
    // Five at most, so a message stays short.
    expect(unprintableCharacters('😀😁😂😃😄😅😆')).toHaveLength(5);
    // Hidden characters are the plain-text rule's business.
    expect(unprintableCharacters('Ana\u202eGarcía')).toEqual([]);
  });

  it('refuses Han characters beyond the fonts (Extension B) and letters of other scripts', () => {
    expect(unprintableCharacters('𠀀')).toEqual(['𠀀']);
    expect(unprintableCharacters('שלום')).toEqual(['ש', 'ל', 'ו', 'ם']);
    expect(unprintableCharacters('ひらがな')).toEqual(['ひ', 'ら', 'が', 'な']);
  });
});

describe('isPersonName', () => {
  it.each(['Zoë', 'Łukasiewicz', "O'Neill", 'O’Neill', 'Gel·labert', 'Jean-Luc', 'Mª José', 'St. John', '王', '佐々木', 'Ελένη', 'Пётр', 'Müller-Lüdenscheidt', 'Nguyễn'])('takes %s', (name) => {
    expect(isPersonName(name)).toBe(true);
  });

  it.each(['Ana3', 'Ana@García', 'Ana, José', '---', "'", 'Ana_García', 'Ana (José)', '😀'])('refuses %s', (name) => {
    expect(isPersonName(name)).toBe(false);
  });
});

describe('the step schemas', () => {
  const now = () => new Date('2026-03-01T12:00:00Z');
  const person = { firstName: 'Zoë', firstSurname: 'Łukasiewicz', secondSurname: 'O’Neill', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '01/01/1990' };

  it('take the names in every script the contract prints', async () => {
    expect(await validateSchema(personalInfoSchema({ now }), person)).toEqual({});
    expect(await validateSchema(personalInfoSchema({ now }), { ...person, firstName: 'Ελένη', firstSurname: 'Пётр', secondSurname: '王' })).toEqual({});
  });

  it('refuse a name with a line break, a bidi override, another script or a digit, each with its own message', async () => {
    const errors = await validateSchema(personalInfoSchema({ now }), {
      ...person,
      firstName: 'Ana\n7. CLAUSULA ADICIONAL PACTADA',
      firstSurname: 'Garc\u202eaí',
      secondSurname: '김민준',
    });
    expect(errors).toEqual({
      firstName: { id: 'validations.plainText' },
      firstSurname: { id: 'validations.plainText' },
      secondSurname: { id: 'validations.unsupportedCharacters', values: { characters: '김 민 준' } },
    });
    expect((await validateSchema(personalInfoSchema({ now }), { ...person, firstName: 'Ana3' })).firstName).toEqual({ id: 'validations.personName' });
  });

  it('refuse hidden characters in every free-text field: addresses, city, company name, website, owners', async () => {
    const address = { companyAddress: 'Calle Mayor 1', companyAdditionalAddress: '', companyPostalCode: '28013', companyCity: 'Madrid', companyCountry: 'ES' };
    for (const [field, value] of [
      ['companyAddress', 'Calle Mayor 1\r\n7. CLAUSULA ADICIONAL'],
      ['companyAdditionalAddress', 'Piso 2\u2028Puerta 3'],
      ['companyCity', 'Mad\u200brid'],
    ] as const) {
      expect(await validateSchema(addressSchema('company'), { ...address, [field]: value })).toEqual({ [field]: { id: 'validations.plainText' } });
    }
    expect(await validateSchema(addressSchema('company'), { ...address, companyCity: 'Madrid 😀' })).toEqual({
      companyCity: { id: 'validations.unsupportedCharacters', values: { characters: '😀' } },
    });
    expect(await validateSchema(addressSchema('company'), { ...address, companyAddress: 'Carrer de Sant Antoni, 12, 3º 2ª – «Edifici Nord»' })).toEqual({});

    const info = { socialDenomination: 'Talleres Núñez', legalForm: 'SL', cnae: '4520', foundedDate: '01/01/2020' };
    const isCnae = () => true;
    expect(await validateSchema(aboutCompanyInfoSchema(isCnae, { now }), { ...info, socialDenomination: 'Talleres\u2066Núñez' })).toEqual({ socialDenomination: { id: 'validations.plainText' } });

    const more = { website: 'https://example.com/\u202egnp.exe', countriesWhereOperate: ['ES'], diviloProduct: 'account', foundsOrigin: 'savings', assetsOrigin: 'savings', politicalPosition: false };
    expect(await validateSchema(tellUsMoreFreelanceSchema, more)).toEqual({ website: { id: 'validations.plainText' } });

    const owner = { role: 'owner', firstName: 'Ana', firstSurname: 'García', identificationDocument: '00000010X', nationality: 'ES', birthDate: '01/01/1980', ownership: 'direct', percentage: '50', politicalPosition: false };
    expect(await validateSchema(ownerSchema({ now }), { ...owner, firstSurname: 'García\nLópez' })).toEqual({ firstSurname: { id: 'validations.plainText' } });
  });
});
