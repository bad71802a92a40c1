import { FETCH_TIMEOUT_MS } from '../outboundCalls';
import type { CaptchaProvider, CaptchaResult } from './types';

interface RecaptchaOptions {
  secret: string;
  /** reCAPTCHA v3 scores from 0 (bot) to 1 (human). */
  minScore: number;
  /** Google's verify API; configurable so the adapter can be tested against a local stand-in. */
  verifyUrl?: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

interface SiteVerifyAnswer {
  success: boolean;
  score?: number;
  action?: string;
  'error-codes'?: string[];
}

/** Google reCAPTCHA v3, verified server-side with the secret; score and action are checked too. */
export function recaptchaProvider(options: RecaptchaOptions): CaptchaProvider {
  const verifyUrl = options.verifyUrl ?? 'https://www.google.com/recaptcha/api/siteverify';
  const fetchImpl = options.fetchImpl ?? fetch;
  return {
    name: 'recaptcha',
    async verify(token, { remoteIp, action }): Promise<CaptchaResult> {
      if (!token || token.length > 4096) return { success: false, reason: 'invalid' };
      const form = new URLSearchParams({ secret: options.secret, response: token });
      if (remoteIp) form.set('remoteip', remoteIp);
      let answer: SiteVerifyAnswer;
      try {
        const response = await fetchImpl(verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS),
        });
        if (!response.ok) return { success: false, reason: 'unavailable' };
        answer = (await response.json()) as SiteVerifyAnswer;
      } catch {
        return { success: false, reason: 'unavailable' };
      }
      if (!answer.success) return { success: false, reason: 'invalid' };
      if (action && answer.action !== action) return { success: false, reason: 'wrong-action', score: answer.score };
      if (typeof answer.score !== 'number' || answer.score < options.minScore) {
        return { success: false, reason: 'low-score', score: answer.score };
      }
      return { success: true, score: answer.score };
    },
  };
}
