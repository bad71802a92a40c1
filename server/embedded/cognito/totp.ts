// Authenticator-app codes as Cognito checks them: RFC 6238, SHA-1, 6 digits, 30-second steps, one step either way.
import { Secret, TOTP } from 'otpauth';
import { open, seal } from './sealing';

const STEP_SECONDS = 30;
const SEAL_CONTEXT = 'software-token';

/** 160 random bits in base32, the SecretCode an authenticator app is given. */
export const createTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** Sealed under the user's sub, so a sealed secret cannot be moved to another user's row. */
export const sealTotpSecret = (key: Buffer, userSub: string, secret: string) => seal(key, secret, `${SEAL_CONTEXT}:${userSub}`);

export const openTotpSecret = (key: Buffer, userSub: string, sealed: string) => open(key, sealed, `${SEAL_CONTEXT}:${userSub}`)?.toString('utf8');

/** The step a code belongs to when it is the current one or one step off, undefined otherwise. */
export function acceptedStep(secret: string, code: string, now: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: STEP_SECONDS });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / STEP_SECONDS) + delta;
}
