import { createChallenge, randomInt, verifySolution, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaProvider, CaptchaResult } from './types';

export interface AltchaOptions {
  /** Signs challenges so the server needs no state to check them. */
  hmacSecret: string;
  /** Signs the expected key: checking a solution is one HMAC instead of re-running the key derivation. */
  hmacKeySecret: string;
  /** PBKDF2 iterations per attempt; the browser tries on average half the counter range. */
  cost: number;
  counterRange: [number, number];
  ttlSeconds: number;
  /** Remembers solved challenges until they expire, so each solution counts once. */
  rememberSolved: (signature: string, expiresAt: number) => Promise<boolean>;
  now?: () => number;
}

const ALGORITHM = 'PBKDF2/SHA-256';

/** The self-hosted proof-of-work captcha (ALTCHA): no third party, works with no internet. */
export function altchaProvider(options: AltchaOptions): CaptchaProvider {
  const now = options.now ?? Date.now;
  return {
    name: 'altcha',
    async createChallenge() {
      return createChallenge({
        algorithm: ALGORITHM,
        cost: options.cost,
        counter: randomInt(options.counterRange[0], options.counterRange[1]),
        deriveKey,
        expiresAt: Math.floor(now() / 1000) + options.ttlSeconds,
        hmacSignatureSecret: options.hmacSecret,
        hmacKeySignatureSecret: options.hmacKeySecret,
      });
    },
    async verify(token): Promise<CaptchaResult> {
      const payload = decodePayload(token);
      if (!payload?.challenge?.signature || payload.challenge.parameters?.algorithm !== ALGORITHM) {
        return { success: false, reason: 'invalid' };
      }
      const expiresAt = payload.challenge.parameters.expiresAt;
      if (typeof expiresAt !== 'number' || expiresAt * 1000 <= now()) return { success: false, reason: 'expired' };
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: options.hmacSecret,
        hmacKeySignatureSecret: options.hmacKeySecret,
      });
      if (result.expired) return { success: false, reason: 'expired' };
      if (!result.verified) return { success: false, reason: 'invalid' };
      const firstUse = await options.rememberSolved(payload.challenge.signature, expiresAt * 1000);
      return firstUse ? { success: true } : { success: false, reason: 'replayed' };
    },
  };
}

/** The widget sends base64(JSON { challenge, solution }). */
function decodePayload(token: string): Payload | undefined {
  if (token.length > 8192) return undefined;
  try {
    return JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Payload;
  } catch {
    return undefined;
  }
}
