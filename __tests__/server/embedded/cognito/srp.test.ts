import { createHash, randomBytes } from 'node:crypto';
import * as cognito from 'amazon-cognito-identity-js';
import {
  N,
  computeSessionKey,
  createPasswordVerifier,
  createServerEphemeral,
  formatSrpTimestamp,
  g,
  k,
  modPowN,
  padHex,
  parseSrpTimestamp,
  passwordClaimSignature,
  signaturesMatch,
} from '../../../../server/embedded/cognito/srp';

// The real client's helper: exported at runtime but not in the package's type declarations.
interface ClientBigInteger {
  toString(radix: number): string;
}
interface ClientHelper {
  smallAValue: ClientBigInteger;
  largeAValue: ClientBigInteger | undefined;
  getLargeAValue(callback: (err: unknown, A: ClientBigInteger) => void): void;
  getPasswordAuthenticationKey(
    username: string,
    password: string,
    B: ClientBigInteger,
    salt: ClientBigInteger,
    callback: (err: unknown, key: Buffer) => void,
  ): void;
}
const AuthenticationHelper = (cognito as unknown as { AuthenticationHelper: new (poolName: string) => ClientHelper })
  .AuthenticationHelper;

function clientHelper(poolName: string, a?: bigint): { helper: ClientHelper; A: bigint } {
  const helper = new AuthenticationHelper(poolName);
  const BigInteger = helper.smallAValue.constructor as new (value: string, radix: number) => ClientBigInteger;
  if (a !== undefined) {
    helper.smallAValue = new BigInteger(a.toString(16), 16);
    helper.largeAValue = undefined;
  }
  let A = '';
  helper.getLargeAValue((err, value) => {
    if (err) throw err;
    A = value.toString(16);
  });
  return { helper, A: BigInt(`0x${A}`) };
}

function clientKey(helper: ClientHelper, user: string, password: string, B: bigint, salt: string): string {
  const BigInteger = helper.smallAValue.constructor as new (value: string, radix: number) => ClientBigInteger;
  let key = '';
  helper.getPasswordAuthenticationKey(user, password, new BigInteger(B.toString(16), 16), new BigInteger(salt, 16), (err, hkdf) => {
    if (err) throw err;
    key = Buffer.from(hkdf).toString('hex');
  });
  return key;
}

const sha256hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const modPowBigInt = (base: bigint, exponent: bigint): bigint => {
  let result = 1n;
  let b = base % N;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % N;
    b = (b * b) % N;
  }
  return result;
};

describe('SRP constants and encodings', () => {
  it('derives the multiplier k the client uses', () => {
    expect(k.toString(16)).toBe('538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6');
  });

  it('pads hex to even length and adds a zero byte when the high bit is set', () => {
    expect(padHex(0xabcn)).toBe('0abc');
    expect(padHex(0x80n)).toBe('0080');
    expect(padHex(0x7fn)).toBe('7f');
    expect(padHex(0x8abcn)).toBe('008abc');
  });

  it('computes modular powers with OpenSSL that agree with plain BigInt, including the trivial bases', () => {
    for (let i = 0; i < 5; i += 1) {
      const base = BigInt(`0x${randomBytes(384).toString('hex')}`) % N;
      const exponent = BigInt(`0x${randomBytes(32).toString('hex')}`);
      expect(modPowN(base, exponent)).toBe(modPowBigInt(base, exponent));
    }
    expect(modPowN(0n, 5n)).toBe(0n);
    expect(modPowN(1n, 5n)).toBe(1n);
    expect(modPowN(N - 1n, 3n)).toBe(N - 1n);
    expect(modPowN(N - 1n, 4n)).toBe(1n);
    expect(modPowN(N + 2n, 10n)).toBe(1024n);
    expect(modPowN(7n, 0n)).toBe(1n);
  });
});

describe('the regression vector', () => {
  const poolName = 'TestPool1';
  const a = BigInt(`0x${sha256hex('vector-a')}${sha256hex('vector-a2')}`);
  const b = BigInt(`0x${sha256hex('vector-b')}${sha256hex('vector-b2')}`);
  const salt = '8f3a1c2b4d5e6f708192a3b4c5d6e7f8';
  const { verifier } = createPasswordVerifier(poolName, 'alice', 'Correct-Horse-1', salt);
  const v = BigInt(`0x${verifier}`);
  const { B } = createServerEphemeral(v, b);

  it('gives the known session key and password claim signature on the server', () => {
    const key = computeSessionKey({ A: modPowN(g, a), B, b, verifier: v })!;
    expect(key.toString('hex')).toBe('1d4ea27994c963d5dc2088b0c1008e16');
    const secretBlock = Buffer.from('c2VjcmV0LWJsb2NrLXZlY3Rvcg==', 'base64');
    expect(passwordClaimSignature(key, poolName, 'alice', secretBlock, 'Sun Nov 22 11:47:51 UTC 2026')).toBe(
      'ZA6ckIuhF1ydFKFJhIH5pkbJSbtOEtOJ9w4hUBjevuw=',
    );
  });

  it('gives the same key in the real client', () => {
    const { helper, A } = clientHelper(poolName, a);
    expect(A).toBe(modPowN(g, a));
    expect(clientKey(helper, 'alice', 'Correct-Horse-1', B, salt)).toBe('1d4ea27994c963d5dc2088b0c1008e16');
  });
});

describe('the server and the real client agree on the session key', () => {
  it('for many random users, passwords and salts, including odd-length A and salts with the high bit set', () => {
    let oddLengthA = 0;
    let highBitSalt = 0;
    // The client's maths is pure JavaScript (about 0.3 s per key with its own 1024-bit a): a 256-bit a keeps this quick.
    for (let i = 0; i < 16; i += 1) {
      const poolName = `Pool${i}`;
      const user = `${randomBytes(6).toString('hex')}-${i}`;
      const password = `${randomBytes(9).toString('base64')}ñ€${i}`;
      const saltBytes = randomBytes(16);
      if (i % 3 === 0) saltBytes[0] |= 0x80; // forces padHex to add the 00 byte
      if (i % 3 === 1) saltBytes[0] = 0; // a leading zero byte the client drops when it parses SALT
      const salt = saltBytes.toString('hex');
      if (saltBytes[0] & 0x80) highBitSalt += 1;

      // Every other user gets an a whose A has an odd number of hex digits, as the client sends SRP_A unpadded.
      let a = BigInt(`0x${randomBytes(32).toString('hex')}`);
      if (i % 2 === 0) {
        while (modPowN(g, a).toString(16).length % 2 === 0) a += 1n;
      }
      const { helper, A } = clientHelper(poolName, a);
      if (A.toString(16).length % 2 === 1) oddLengthA += 1;

      const { verifier } = createPasswordVerifier(poolName, user, password, salt);
      const v = BigInt(`0x${verifier}`);
      const server = createServerEphemeral(v);
      const serverKey = computeSessionKey({ A, B: server.B, b: server.b, verifier: v })!;
      expect(clientKey(helper, user, password, server.B, salt)).toBe(serverKey.toString('hex'));
      if (i < 3) {
        // And a wrong password gives another key.
        expect(clientKey(clientHelper(poolName, a).helper, user, `${password}x`, server.B, salt)).not.toBe(serverKey.toString('hex'));
      }
    }
    expect(oddLengthA).toBeGreaterThanOrEqual(8);
    expect(highBitSalt).toBeGreaterThanOrEqual(6);
  });

  it('with the client picking its own random a', () => {
    for (let i = 0; i < 2; i += 1) {
      const { helper, A } = clientHelper('Divilo1');
      const { salt, verifier } = createPasswordVerifier('Divilo1', `user${i}`, 'Secret-pass-9');
      const v = BigInt(`0x${verifier}`);
      const server = createServerEphemeral(v);
      const key = computeSessionKey({ A, B: server.B, b: server.b, verifier: v })!;
      expect(clientKey(helper, `user${i}`, 'Secret-pass-9', server.B, salt)).toBe(key.toString('hex'));
    }
  });

  it('refuses a client public value that is a multiple of N', () => {
    const { verifier } = createPasswordVerifier('Divilo1', 'u', 'p');
    const v = BigInt(`0x${verifier}`);
    const { B, b } = createServerEphemeral(v);
    expect(computeSessionKey({ A: 0n, B, b, verifier: v })).toBeUndefined();
    expect(computeSessionKey({ A: N, B, b, verifier: v })).toBeUndefined();
    expect(computeSessionKey({ A: 2n * N, B, b, verifier: v })).toBeUndefined();
  });
});

describe('signatures and timestamps', () => {
  it('compares signatures exactly', () => {
    const signature = passwordClaimSignature(randomBytes(16), 'P', 'u', randomBytes(8), 'Sun Nov 22 11:47:51 UTC 2026');
    expect(signaturesMatch(signature, signature)).toBe(true);
    const flipped = Buffer.from(signature, 'base64');
    flipped[3] ^= 1;
    expect(signaturesMatch(signature, flipped.toString('base64'))).toBe(false);
    expect(signaturesMatch(signature, '')).toBe(false);
    expect(signaturesMatch(signature, signature.slice(0, 20))).toBe(false);
  });

  it('reads the client timestamp format and refuses anything else', () => {
    expect(parseSrpTimestamp('Sun Nov 22 11:47:51 UTC 2026')).toBe(Date.UTC(2026, 10, 22, 11, 47, 51));
    expect(parseSrpTimestamp('Mon Feb 2 09:05:01 UTC 2026')).toBe(Date.UTC(2026, 1, 2, 9, 5, 1));
    for (const bad of ['', 'Sun Nov 22 11:47:51 GMT 2026', 'Mon Nov 22 11:47:51 UTC 2026', 'Sun Nov 02 11:47:51 UTC 2026',
      'Sat Feb 31 11:47:51 UTC 2026', 'Sun Foo 22 11:47:51 UTC 2026', '2026-11-22T11:47:51Z']) {
      expect(parseSrpTimestamp(bad)).toBeUndefined();
    }
    const now = Date.UTC(2027, 0, 5, 3, 4, 5);
    expect(parseSrpTimestamp(formatSrpTimestamp(now))).toBe(now);
  });
});
