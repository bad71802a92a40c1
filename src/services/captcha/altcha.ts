import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import type { CaptchaClient } from './index';

/**
 * The self-hosted proof of work (ALTCHA protocol): fetch a signed challenge, find the counter in the
 * browser with WebCrypto, and hand base64(JSON { challenge, solution }) to the server to verify.
 */
export function altchaClient(challengeUrl: string): CaptchaClient {
  return {
    async execute() {
      const response = await fetch(challengeUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (!response.ok) throw new Error(`Request failed with status code ${response.status}`);
      const challenge = (await response.json()) as Challenge;
      const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
      if (!solution) throw new Error('Captcha not solved');
      return btoa(JSON.stringify({ challenge, solution }));
    },
  };
}
