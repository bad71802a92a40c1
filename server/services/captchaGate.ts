import type { CaptchaRepository } from '../repositories/captchaRepository';

/**
 * What a captcha success is worth: a pass bound to the browser's session id, short-lived and used once by
 * the call it protects (create-session, register, password recovery). The browser's check alone is no gate.
 */
export function captchaGate(captchas: CaptchaRepository, { passSeconds }: { passSeconds: number }) {
  return {
    /** A solved challenge counts once: false when it was already used. */
    rememberSolved: (signature: string, expiresAt: number): Promise<boolean> => captchas.rememberSolution(signature, new Date(expiresAt)),

    grantPass: (sessionId: string, now: Date): Promise<void> => captchas.grantPass(sessionId, new Date(now.getTime() + passSeconds * 1000)),

    /** Uses the session's pass: true once per pass, false when there is none, it expired or was used. */
    consumePass: (sessionId: string, now: Date): Promise<boolean> => captchas.usePass(sessionId, now),

    sweep: (now: Date): Promise<void> => captchas.removeExpired(now),
  };
}

export type CaptchaGate = ReturnType<typeof captchaGate>;
