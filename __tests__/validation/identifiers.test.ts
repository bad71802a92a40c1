import { string } from 'yup';
import { rules } from '../../src/validation/rules';
import {
  canonicalIdDocument,
  cifControlDigit,
  dniCheckLetter,
  isValidCif,
  isValidDni,
  isValidIdentificationDocument,
  isValidKlmNif,
  isValidNie,
  isValidNif,
  isValidPassport,
  normaliseDocument,
} from '../../src/validation';

// Check letters: 'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]
//   T0 R1 W2 A3 G4 M5 Y6 F7 P8 D9 X10 B11 N12 J13 Z14 S15 Q16 V17 H18 L19 C20 K21 E22
// 12345678 = 23 * 536768 + 14   → Z
// 00000000 = 0                  → T
// 99999999 = 23 * 4347826 + 1   → R
// 54362315 = 23 * 2363578 + 21  → K
// 1234567  = 23 * 53676 + 19    → L   (X1234567, K1234567)
// 11234567 = 23 * 488459 + 10   → X   (Y1234567)
// 21234567 = 23 * 923242 + 1    → R   (Z1234567)
// 5253868  = 23 * 228429 + 1    → R   (X5253868)
// 112345678 = 23 * 4884594 + 16 → Q   (Y12345678)
// 212345678 = 23 * 9232420 + 18 → H   (Z12345678)

describe('dniCheckLetter', () => {
  it('is the number modulo 23 looked up in TRWAGMYFPDXBNJZSQVHLCKE', () => {
    expect(dniCheckLetter('12345678')).toBe('Z');
    expect(dniCheckLetter('00000000')).toBe('T');
    expect(dniCheckLetter('99999999')).toBe('R');
    expect(dniCheckLetter('54362315')).toBe('K');
  });

  it('refuses anything but digits', () => {
    expect(() => dniCheckLetter('1234A678')).toThrow();
  });
});

describe('isValidDni', () => {
  it.each(['12345678Z', '00000000T', '99999999R', '54362315K'])('accepts %s', (dni) => {
    expect(isValidDni(dni)).toBe(true);
  });

  it('trims and upper-cases before checking', () => {
    expect(isValidDni('  12345678z ')).toBe(true);
    expect(normaliseDocument('  12345678z ')).toBe('12345678Z');
  });

  it.each([
    ['12345678A', 'wrong check letter'],
    ['54362315J', 'wrong check letter'],
    ['1234567Z', '7 digits'],
    ['123456789Z', '9 digits'],
    ['12345678', 'no letter'],
    ['12345678-Z', 'separator'],
    ['X1234567L', 'a NIE is not a DNI'],
    ['', 'empty'],
  ])('rejects %s (%s)', (dni) => {
    expect(isValidDni(dni)).toBe(false);
  });

  it('rejects values that are not text', () => {
    expect(isValidDni(12345678)).toBe(false);
    expect(isValidDni(null)).toBe(false);
    expect(isValidDni({})).toBe(false);
  });
});

describe('isValidNie', () => {
  it.each(['X1234567L', 'Y1234567X', 'Z1234567R', 'X5253868R', 'x1234567l'])('accepts %s', (nie) => {
    expect(isValidNie(nie)).toBe(true);
  });

  it.each([
    ['X1234567X', 'letter of Y1234567'],
    ['Y1234567L', 'letter of X1234567: the prefix counts'],
    ['Z1234567L', 'letter of X1234567: the prefix counts'],
    ['X12345678Z', 'the official NIE has 7 digits'],
    ['W1234567L', 'unknown prefix'],
    ['12345678Z', 'a DNI is not a NIE'],
  ])('rejects %s (%s)', (nie) => {
    expect(isValidNie(nie)).toBe(false);
  });
});

describe('isValidKlmNif', () => {
  it('uses the DNI letter of the 7 digits, whatever the prefix', () => {
    expect(isValidKlmNif('K1234567L')).toBe(true);
    expect(isValidKlmNif('L1234567L')).toBe(true);
    expect(isValidKlmNif('M1234567L')).toBe(true);
    // 0000000 → T
    expect(isValidKlmNif('K0000000T')).toBe(true);
  });

  it('rejects a wrong letter or another prefix', () => {
    expect(isValidKlmNif('K1234567X')).toBe(false);
    expect(isValidKlmNif('J1234567L')).toBe(false);
    expect(isValidKlmNif('K12345678Z')).toBe(false);
  });
});

describe('isValidNif', () => {
  it.each(['12345678Z', 'X1234567L', 'Z1234567R', 'K1234567L', 'm1234567l'])('accepts the person tax id %s', (nif) => {
    expect(isValidNif(nif)).toBe(true);
  });

  it.each(['12345678A', 'X1234567X', 'B12345674', 'X12345678Z', 'K1234567A'])('rejects %s', (nif) => {
    expect(isValidNif(nif)).toBe(false);
  });
});

describe('isValidIdentificationDocument', () => {
  it('accepts a DNI and a 7-digit NIE', () => {
    expect(isValidIdentificationDocument('12345678Z')).toBe(true);
    expect(isValidIdentificationDocument('X1234567L')).toBe(true);
    expect(isValidIdentificationDocument('Y1234567X')).toBe(true);
    expect(isValidIdentificationDocument('z1234567r')).toBe(true);
  });

  it('accepts an 8-digit NIE whose letter is that of prefix digit + 8 digits', () => {
    // X → 0: 012345678 = 12345678 → Z (the old X + 8 digits format)
    expect(isValidIdentificationDocument('X12345678Z')).toBe(true);
    // Y → 1: 112345678 → Q ; Z → 2: 212345678 → H
    expect(isValidIdentificationDocument('Y12345678Q')).toBe(true);
    expect(isValidIdentificationDocument('Z12345678H')).toBe(true);
    // zero-padded NIE: 001234567 = 1234567 → L, like X1234567L
    expect(isValidIdentificationDocument('X01234567L')).toBe(true);
  });

  it.each([
    ['X12345678Q', 'letter of Y12345678'],
    ['Y12345678Z', 'letter of X12345678: the prefix counts'],
    ['Z12345678Q', 'wrong letter'],
    ['X123456789Z', '9 digits'],
    ['X123456L', '6 digits'],
    ['12345678A', 'wrong DNI letter'],
    ['K1234567L', 'K/L/M NIFs are not identity documents'],
    ['B12345674', 'a CIF is not an identity document'],
  ])('rejects %s (%s)', (document) => {
    expect(isValidIdentificationDocument(document)).toBe(false);
  });
});

// CIF control digit of the 7 digits d1..d7: odd positions doubled with their digits added, even positions
// added, control = (10 - total % 10) % 10, control letter = 'JABCDEFGHI'[control].
// 1234567: odd 1,3,5,7 → 2 + 6 + (1+0) + (1+4) = 14; even 2,4,6 → 12; total 26 → 4, letter D
// 5881850: odd 5,8,8,0 → (1+0) + (1+6) + (1+6) + 0 = 15; even 8,1,5 → 14; total 29 → 1, letter A
// 2826000: odd 2,2,0,0 → 4 + 4 = 8; even 8,6,0 → 14; total 22 → 8, letter H   (Q2826000H, the AEAT)
// 1000004: odd 1,0,0,4 → 2 + 8 = 10; even 0 → total 10 → 0, letter J
describe('cifControlDigit', () => {
  it('follows the official algorithm', () => {
    expect(cifControlDigit('1234567')).toBe(4);
    expect(cifControlDigit('5881850')).toBe(1);
    expect(cifControlDigit('2826000')).toBe(8);
    expect(cifControlDigit('1000004')).toBe(0);
  });
});

describe('isValidCif', () => {
  it.each(['B12345674', 'A58818501', 'Q2826000H', 'A10000040', 'P1000004J', 'P1234567D', 'b12345674'])(
    'accepts %s',
    (cif) => {
      expect(isValidCif(cif)).toBe(true);
    },
  );

  it('rejects a wrong control character', () => {
    expect(isValidCif('B12345675')).toBe(false);
    expect(isValidCif('A58818502')).toBe(false);
    expect(isValidCif('Q2826000G')).toBe(false);
  });

  it('requires a control digit for A, B, E and H', () => {
    expect(isValidCif('B1234567D')).toBe(false);
    expect(isValidCif('A5881850A')).toBe(false);
    expect(isValidCif('E12345674')).toBe(true);
    expect(isValidCif('H1234567D')).toBe(false);
  });

  it('requires a control letter for P, Q, R, S, N and W', () => {
    expect(isValidCif('Q28260008')).toBe(false);
    expect(isValidCif('P12345674')).toBe(false);
    expect(isValidCif('S1234567D')).toBe(true);
    expect(isValidCif('W12345674')).toBe(false);
  });

  it('accepts either form for the other types', () => {
    expect(isValidCif('G12345674')).toBe(true);
    expect(isValidCif('G1234567D')).toBe(true);
    expect(isValidCif('G1234567E')).toBe(false);
  });

  it.each([
    ['I12345674', 'I is not an organisation type'],
    ['X1234567L', 'a NIE'],
    ['12345678Z', 'a DNI'],
    ['B1234567', 'no control character'],
    ['B123456744', 'too long'],
  ])('rejects %s (%s)', (cif) => {
    expect(isValidCif(cif)).toBe(false);
  });
});

describe('isValidPassport', () => {
  it('accepts 1 to 13 letters and digits, in any case, trimmed', () => {
    expect(isValidPassport('A')).toBe(true);
    expect(isValidPassport('PAA123456')).toBe(true);
    expect(isValidPassport('AB1234567890C')).toBe(true); // 13
    expect(isValidPassport(' ab1234567890c ')).toBe(true);
  });

  it('rejects 14 characters, symbols, spaces inside and empty values', () => {
    expect(isValidPassport('AB1234567890CD')).toBe(false); // 14
    expect(isValidPassport('AB-123456')).toBe(false);
    expect(isValidPassport('AB 123456')).toBe(false);
    expect(isValidPassport('Ñ123456')).toBe(false);
    expect(isValidPassport('')).toBe(false);
    expect(isValidPassport('   ')).toBe(false);
  });
});

describe('canonicalIdDocument', () => {
  it('writes an X NIE padded to 8 digits with its 7 digits: one number, one person', () => {
    // 001082303 = 1082303 → S, 002600637 = 2600637 → G
    expect(canonicalIdDocument('X01082303S')).toBe('X1082303S');
    expect(canonicalIdDocument(' x02600637g ')).toBe('X2600637G');
    expect(canonicalIdDocument('X01082303S')).toBe(canonicalIdDocument('X1082303S'));
  });

  it.each([
    ['X1082303S', 'X1082303S', 'already canonical'],
    ['12345678z', '12345678Z', 'a DNI is only upper-cased'],
    ['X12345678Z', 'X12345678Z', 'an old 8-digit X NIE that is no padding'],
    // Y → 1: Y0 + 1234567 is 101234567, not Y1234567's 11234567: another document, kept whole
    ['Y01234567K', 'Y01234567K', 'a Y NIE keeps its 8 digits'],
    ['X01082303A', 'X01082303A', 'an invalid value stays as typed, for its error'],
    ['AB123456', 'AB123456', 'a passport'],
  ])('%s → %s (%s)', (typed, canonical) => {
    expect(canonicalIdDocument(typed)).toBe(canonical);
  });

  it('gives an empty string for what is not text', () => {
    expect(canonicalIdDocument(undefined)).toBe('');
    expect(canonicalIdDocument({})).toBe('');
  });

  it("lets the NIF rule take any spelling of a person's number, and no other number", async () => {
    const nif = string().test(rules.nif());
    expect(await nif.isValid('X01082303S')).toBe(true);
    expect(await nif.isValid('X1082303S')).toBe(true);
    expect(await nif.isValid('X01082303A')).toBe(false);
  });
});
