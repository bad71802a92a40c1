/** The outcome of checking a captcha token with its provider. */
export interface CaptchaResult {
  success: boolean;
  /** Why a token was refused, for logs and tests only: never shown to the user. */
  reason?: 'invalid' | 'expired' | 'replayed' | 'low-score' | 'wrong-action' | 'unavailable';
  score?: number;
}

/** One interface, one implementation per provider: the self-hosted proof of work, or Google reCAPTCHA v3. */
export interface CaptchaProvider {
  readonly name: 'altcha' | 'recaptcha';
  verify(token: string, context: { remoteIp?: string; action?: string }): Promise<CaptchaResult>;
  /** Only the proof-of-work provider issues challenges itself. */
  createChallenge?(): Promise<unknown>;
}
