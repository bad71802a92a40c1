// The server half of Cognito's SRP-6a (USER_SRP_AUTH), bit for bit what amazon-cognito-identity-js expects.
import { createDiffieHellman, createHash, createHmac, randomBytes, timingSafeEqual, type DiffieHellman } from 'node:crypto';

/** RFC 3526 3072-bit MODP group prime, the group Cognito uses. */
const N_HEX =
  'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
  'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
  'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
  '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
  'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
  '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
  'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
  'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF';

export const N = BigInt(`0x${N_HEX}`);
export const g = 2n;

const INFO_BITS = Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]);
/** Size of the server's secret exponent b, in bytes (the protocol asks for at least 256 bits). */
const SMALL_B_BYTES = 32;

/** Hex of n, even length, with `00` in front when the first nibble is ≥ 8 (Java's BigInteger.toByteArray). */
export function padHex(n: bigint): string {
  if (n < 0n) throw new RangeError('padHex takes a non-negative integer');
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return /^[89a-f]/.test(hex) ? `00${hex}` : hex;
}

/** SHA-256 over the bytes a hex string spells, as 64 hex digits. */
export function hexHash(hex: string): string {
  return createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
}

function toBuffer(n: bigint): Buffer {
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex');
}

function fromBuffer(buffer: Buffer): bigint {
  return buffer.length === 0 ? 0n : BigInt(`0x${buffer.toString('hex')}`);
}

export const k = BigInt(`0x${hexHash(padHex(N) + padHex(g))}`);

// One OpenSSL context for the whole process: building one checks the prime, and the calls below are synchronous.
// Made on first use: on Node 24 (OpenSSL 3.5) the check takes seconds of CPU (4 s against none on Node 20), which a
// process that never computes SRP (a server on Amazon Cognito, the admin program) should not pay at start.
let openssl: DiffieHellman | undefined;

/**
 * base^exponent mod N, computed by OpenSSL (a Diffie-Hellman "shared secret" is exactly that), an order of
 * magnitude faster than BigInt. OpenSSL refuses the bases 0, 1 and N−1, whose powers are trivial anyway.
 */
export function modPowN(base: bigint, exponent: bigint): bigint {
  const reduced = ((base % N) + N) % N;
  if (exponent === 0n) return 1n;
  if (reduced <= 1n) return reduced;
  if (reduced === N - 1n) return exponent % 2n === 0n ? 1n : reduced;
  openssl ??= createDiffieHellman(toBuffer(N), toBuffer(g));
  openssl.setPrivateKey(toBuffer(exponent));
  return fromBuffer(openssl.computeSecret(toBuffer(reduced)));
}

/** x = H(padHex(salt) ‖ hex(SHA256(poolName ‖ userIdForSrp ‖ ":" ‖ password))). */
export function computeX(poolName: string, userIdForSrp: string, password: string, saltHex: string): bigint {
  const inner = createHash('sha256').update(`${poolName}${userIdForSrp}:${password}`, 'utf8').digest('hex');
  return BigInt(`0x${hexHash(padHex(BigInt(`0x${saltHex}`)) + inner)}`);
}

interface PasswordVerifier {
  /** Hex of 16 random bytes, sent to the client as SALT. */
  salt: string;
  /** Hex of v = g^x mod N. */
  verifier: string;
}

/** What is stored when a password is set: the password itself never is. */
export function createPasswordVerifier(
  poolName: string,
  userIdForSrp: string,
  password: string,
  salt: string = randomBytes(16).toString('hex'),
): PasswordVerifier {
  const verifier = modPowN(g, computeX(poolName, userIdForSrp, password, salt));
  return { salt, verifier: verifier.toString(16) };
}

interface ServerEphemeral {
  b: bigint;
  B: bigint;
}

/** B = (k·v + g^b) mod N, with a fresh b unless one is given (the regression vector fixes it). */
export function createServerEphemeral(verifier: bigint, b: bigint = fromBuffer(randomBytes(SMALL_B_BYTES))): ServerEphemeral {
  // A b of zero would make B = k·v and leak the verifier; the chance is 2^-256 but the check is free.
  if (b === 0n) return createServerEphemeral(verifier);
  return { b, B: (k * verifier + modPowN(g, b)) % N };
}

/**
 * The server's whole side of the exchange, as soon as A and v are known (InitiateAuth): B for the client, and
 * the session key K the client must prove it derived too. A fresh b is drawn in the 2^-256 case of u = 0.
 */
export function serverSessionKey(A: bigint, verifier: bigint): { B: bigint; key: Buffer } {
  if (!isValidClientPublic(A)) throw new RangeError('A must not be a multiple of N');
  for (;;) {
    const { b, B } = createServerEphemeral(verifier);
    const key = computeSessionKey({ A, B, b, verifier });
    if (key) return { B, key };
  }
}

/** The client's A is public but attacker-controlled: a multiple of N would force S = 0. */
export function isValidClientPublic(A: bigint): boolean {
  return A > 0n && A % N !== 0n;
}

/**
 * K, the 16-byte session key both sides derive: S = (A·v^u)^b mod N, then
 * HMAC(key = HMAC(key = padHex(u), padHex(S)), "Caldera Derived Key" ‖ 0x01), first 16 bytes.
 * Returns undefined when u = 0 (the protocol aborts then).
 */
export function computeSessionKey(params: { A: bigint; B: bigint; b: bigint; verifier: bigint }): Buffer | undefined {
  const { A, B, b, verifier } = params;
  if (!isValidClientPublic(A)) return undefined;
  const u = BigInt(`0x${hexHash(padHex(A) + padHex(B))}`);
  if (u === 0n) return undefined;
  const S = modPowN((A % N) * modPowN(verifier, u), b);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex')).update(Buffer.from(padHex(S), 'hex')).digest();
  return createHmac('sha256', prk).update(INFO_BITS).digest().subarray(0, 16);
}

/** base64(HMAC-SHA256(K, poolName ‖ userIdForSrp ‖ secretBlock ‖ timestamp)). */
export function passwordClaimSignature(
  key: Buffer,
  poolName: string,
  userIdForSrp: string,
  secretBlock: Buffer,
  timestamp: string,
): string {
  return createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(poolName, 'utf8'), Buffer.from(userIdForSrp, 'utf8'), secretBlock, Buffer.from(timestamp, 'utf8')]))
    .digest('base64');
}

/** Compares a claimed signature with the expected one in constant time. */
export function signaturesMatch(expected: string, claimed: string): boolean {
  const a = Buffer.from(expected, 'base64');
  const b = Buffer.from(claimed, 'base64');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIMESTAMP = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) ([A-Z][a-z]{2}) ([1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d) UTC (\d{4})$/;

/** The client's TIMESTAMP (`Sun Nov 22 11:47:51 UTC 2026`) as epoch milliseconds, or undefined if malformed. */
export function parseSrpTimestamp(timestamp: string): number | undefined {
  const match = TIMESTAMP.exec(timestamp);
  if (!match) return undefined;
  const [, weekday, monthName, day, hours, minutes, seconds, year] = match;
  const month = MONTHS.indexOf(monthName);
  if (month < 0) return undefined;
  const time = Date.UTC(Number(year), month, Number(day), Number(hours), Number(minutes), Number(seconds));
  const date = new Date(time);
  // Rejects 31 Feb and a weekday that does not belong to the date.
  if (date.getUTCDate() !== Number(day) || WEEKDAYS[date.getUTCDay()] !== weekday) return undefined;
  return time;
}

/** The format the client writes, for tests and tools that play the client. */
export function formatSrpTimestamp(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`
  );
}
