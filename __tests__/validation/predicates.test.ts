import {
  LOGIN_ID_MAX_LENGTH,
  LOGIN_ID_MIN_LENGTH,
  MAX_AGE,
  ADULT_AGE,
  URL_MAX_LENGTH,
  hasMaxLength,
  hasMinLength,
  isAlphanumeric,
  isAtLeast,
  isAtMost,
  isEmpty,
  isInteger,
  isNumeric,
  isPdfFile,
  isSixDigitCode,
  isValidEmail,
  isValidPhoneNumber,
  isValidProductPassword,
  isValidSpanishPostalCode,
  isValidStaffPassword,
  isValidUrl,
  parseNumber,
} from '../../src/validation';

describe('constants', () => {
  it('match the business limits', () => {
    expect([LOGIN_ID_MIN_LENGTH, LOGIN_ID_MAX_LENGTH, MAX_AGE, ADULT_AGE, URL_MAX_LENGTH]).toEqual([4, 25, 120, 18, 50]);
  });
});

describe('isEmpty', () => {
  it('treats missing values, blank text, NaN and empty lists as empty', () => {
    for (const value of [undefined, null, '', '   ', '\t\n', Number.NaN, []]) expect(isEmpty(value)).toBe(true);
  });

  it('treats false, 0 and objects as values', () => {
    for (const value of [false, 0, 'a', [1], {}]) expect(isEmpty(value)).toBe(false);
  });
});

describe('lengths', () => {
  it('count trimmed characters, an accented letter or an emoji being one', () => {
    expect(hasMinLength('abcd', 4)).toBe(true);
    expect(hasMinLength(' abc ', 4)).toBe(false);
    expect(hasMinLength('añ😀', 3)).toBe(true);
    expect(hasMaxLength('añ😀', 3)).toBe(true);
    expect(hasMaxLength('añ😀b', 3)).toBe(false);
    expect(hasMaxLength('a'.repeat(25), 25)).toBe(true);
    expect(hasMaxLength('a'.repeat(26), 25)).toBe(false);
  });
});

describe('numbers', () => {
  it('parseNumber reads plain numbers with a point or a comma', () => {
    expect(parseNumber('12,5')).toBe(12.5);
    expect(parseNumber(' -3 ')).toBe(-3);
    expect(parseNumber(7)).toBe(7);
    expect(parseNumber('1.000,5')).toBeNull();
    expect(parseNumber('1e3')).toBeNull();
    expect(parseNumber('')).toBeNull();
    expect(parseNumber(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('isNumeric accepts unsigned decimals only', () => {
    expect(isNumeric('0')).toBe(true);
    expect(isNumeric('0042')).toBe(true);
    expect(isNumeric('3,5')).toBe(true);
    expect(isNumeric(3.5)).toBe(true);
    expect(isNumeric('-1')).toBe(false);
    expect(isNumeric('12a')).toBe(false);
    expect(isNumeric('1 000')).toBe(false);
    expect(isNumeric('.5')).toBe(false);
  });

  it('isInteger accepts whole numbers, negative too', () => {
    expect(isInteger('12')).toBe(true);
    expect(isInteger('-12')).toBe(true);
    expect(isInteger(4)).toBe(true);
    expect(isInteger('1.0')).toBe(false);
    expect(isInteger(1.5)).toBe(false);
    expect(isInteger('+3')).toBe(false);
    expect(isInteger('abc')).toBe(false);
  });

  it('isAtLeast / isAtMost are inclusive and reject non-numbers', () => {
    expect(isAtLeast('10', 10)).toBe(true);
    expect(isAtLeast('9,99', 10)).toBe(false);
    expect(isAtLeast('abc', 0)).toBe(false);
    expect(isAtMost(100, 100)).toBe(true);
    expect(isAtMost('100.01', 100)).toBe(false);
  });
});

describe('isAlphanumeric', () => {
  it('accepts ASCII letters and digits only', () => {
    expect(isAlphanumeric('Abc123')).toBe(true);
    expect(isAlphanumeric(' Abc123 ')).toBe(true);
    expect(isAlphanumeric('Abc 123')).toBe(false);
    expect(isAlphanumeric('abc-123')).toBe(false);
    expect(isAlphanumeric('año')).toBe(false);
  });
});

describe('isSixDigitCode', () => {
  it('accepts exactly six digits', () => {
    expect(isSixDigitCode('012345')).toBe(true);
    expect(isSixDigitCode(' 123456 ')).toBe(true);
    expect(isSixDigitCode('12345')).toBe(false);
    expect(isSixDigitCode('1234567')).toBe(false);
    expect(isSixDigitCode('12345a')).toBe(false);
    expect(isSixDigitCode('123 456')).toBe(false);
  });
});

describe('isValidPhoneNumber', () => {
  it('needs more than 4 digits', () => {
    expect(isValidPhoneNumber('1234')).toBe(false);
    expect(isValidPhoneNumber('12345')).toBe(true);
    expect(isValidPhoneNumber('600111222')).toBe(true);
  });

  it('accepts digits only', () => {
    expect(isValidPhoneNumber('+34600111222')).toBe(false);
    expect(isValidPhoneNumber('600 111 222')).toBe(false);
    expect(isValidPhoneNumber('600-111-222')).toBe(false);
  });
});

describe('isValidSpanishPostalCode', () => {
  it('accepts 01000 to 52999', () => {
    expect(isValidSpanishPostalCode('01000')).toBe(true);
    expect(isValidSpanishPostalCode('28001')).toBe(true);
    expect(isValidSpanishPostalCode('52999')).toBe(true);
  });

  it('rejects the codes around the range and other shapes', () => {
    expect(isValidSpanishPostalCode('00999')).toBe(false);
    expect(isValidSpanishPostalCode('53000')).toBe(false);
    expect(isValidSpanishPostalCode('1000')).toBe(false);
    expect(isValidSpanishPostalCode(1000)).toBe(false);
    expect(isValidSpanishPostalCode('280011')).toBe(false);
    expect(isValidSpanishPostalCode('2800A')).toBe(false);
  });
});

describe('isValidProductPassword', () => {
  it('accepts 8 and 99 characters', () => {
    expect(isValidProductPassword('Abcdef1!')).toBe(true);
    const longest = `Aa1!${'a'.repeat(95)}`;
    expect(longest).toHaveLength(99);
    expect(isValidProductPassword(longest)).toBe(true);
  });

  it('rejects 7 and 100 characters', () => {
    expect(isValidProductPassword('Abcde1!')).toBe(false);
    expect(isValidProductPassword(`Aa1!${'a'.repeat(96)}`)).toBe(false);
  });

  it('needs a lowercase letter, an uppercase letter, a digit and a special character', () => {
    expect(isValidProductPassword('ABCDEF1!')).toBe(false);
    expect(isValidProductPassword('abcdef1!')).toBe(false);
    expect(isValidProductPassword('Abcdefg!')).toBe(false);
    expect(isValidProductPassword('Abcdefg1')).toBe(false);
    expect(isValidProductPassword('Ñandú#2024')).toBe(true);
  });

  it('rejects whitespace anywhere, including at the ends', () => {
    expect(isValidProductPassword('Abc def1!')).toBe(false);
    expect(isValidProductPassword('Abcdef1!\t')).toBe(false);
    expect(isValidProductPassword(' Abcdef1!')).toBe(false);
  });

  it('rejects values that are not text', () => {
    expect(isValidProductPassword(12345678)).toBe(false);
  });
});

describe('isValidStaffPassword', () => {
  it('accepts 12 and 256 characters, and refuses 11 and 257', () => {
    expect(isValidStaffPassword('Abcdefghij1!')).toBe(true);
    expect(isValidStaffPassword('Abcdefghi1!')).toBe(false);
    expect(isValidStaffPassword(`Aa1!${'a'.repeat(252)}`)).toBe(true);
    expect(isValidStaffPassword(`Aa1!${'a'.repeat(253)}`)).toBe(false);
  });

  it("needs a-z, A-Z, 0-9 and one of Amazon Cognito's special characters, as the staff pool does", () => {
    expect(isValidStaffPassword('ABCDEFGHIJ1!')).toBe(false);
    expect(isValidStaffPassword('abcdefghij1!')).toBe(false);
    expect(isValidStaffPassword('Abcdefghijk!')).toBe(false);
    expect(isValidStaffPassword('Abcdefghijk1')).toBe(false);
    // Letters outside A to Z and symbols outside Cognito's list count for nothing there.
    expect(isValidStaffPassword('ñandúpasswd1!')).toBe(false);
    expect(isValidStaffPassword('Abcdefghijk1€')).toBe(false);
    for (const special of '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-') expect(isValidStaffPassword(`Abcdefghij1${special}`)).toBe(true);
  });

  it('takes a space between words as a special character, and none at either end', () => {
    expect(isValidStaffPassword('Correct horse 2026')).toBe(true);
    expect(isValidStaffPassword(' Abcdefghij1!')).toBe(false);
    expect(isValidStaffPassword('Abcdefghij1! ')).toBe(false);
    expect(isValidStaffPassword(123456789012)).toBe(false);
  });
});

describe('isValidUrl', () => {
  const base = 'https://example.com/';

  it('accepts http and https addresses up to 50 characters', () => {
    const exactly50 = base + 'a'.repeat(50 - base.length);
    expect(exactly50).toHaveLength(50);
    expect(isValidUrl(exactly50)).toBe(true);
    expect(isValidUrl('http://www.divilo.es')).toBe(true);
    expect(isValidUrl(' https://divilo.es/empresas?x=1 ')).toBe(true);
  });

  it('rejects 51 characters', () => {
    const exactly51 = base + 'a'.repeat(51 - base.length);
    expect(exactly51).toHaveLength(51);
    expect(isValidUrl(exactly51)).toBe(false);
  });

  it.each([
    ['ftp://example.com', 'ftp'],
    ['mailto:info@example.com', 'mailto'],
    ['javascript:alert(1)', 'javascript'],
    ['www.example.com', 'no scheme'],
    ['http:example.com', 'no slashes'],
    ['http://localhost', 'no dot in the host'],
    ['http://exa mple.com', 'whitespace'],
    ['https://user:secret@example.com', 'credentials'],
    ['https://', 'no host'],
  ])('rejects %s (%s)', (url) => {
    expect(isValidUrl(url)).toBe(false);
  });
});

describe('isValidEmail', () => {
  it.each(['ana@example.com', 'ana.garcia+banco@sub.example.es', ' ana@example.com '])('accepts %p', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    'ana@',
    '@example.com',
    'ana@example',
    'ana@@example.com',
    'ana example@example.com',
    '.ana@example.com',
    'ana..garcia@example.com',
    'ana@-example.com',
    'ana@example.c',
    `${'a'.repeat(65)}@example.com`,
  ])('rejects %p', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('isPdfFile', () => {
  const pdf = { name: 'escrituras.pdf', type: 'application/pdf', size: 1024 };

  it('accepts a non-empty application/pdf file named .pdf in any case', () => {
    expect(isPdfFile(pdf)).toBe(true);
    expect(isPdfFile({ ...pdf, name: 'MODELO_200.PDF' })).toBe(true);
    expect(isPdfFile({ ...pdf, size: 1 })).toBe(true);
  });

  it('rejects another type, an empty file or another extension', () => {
    expect(isPdfFile({ ...pdf, type: 'image/png' })).toBe(false);
    expect(isPdfFile({ ...pdf, type: '' })).toBe(false);
    expect(isPdfFile({ ...pdf, size: 0 })).toBe(false);
    expect(isPdfFile({ ...pdf, name: 'escrituras.pdf.exe' })).toBe(false);
    expect(isPdfFile({ ...pdf, name: 'escrituras' })).toBe(false);
  });

  it('rejects things that are not files', () => {
    expect(isPdfFile('escrituras.pdf')).toBe(false);
    expect(isPdfFile(null)).toBe(false);
    expect(isPdfFile({ name: 'a.pdf', type: 'application/pdf' })).toBe(false);
  });
});
