// The answers every route that checks or sends a one-time code gives (login, recovery, the wizard's e-mail, phone
// and signature codes): one wording of each refusal, whoever asks.
import { ApiError } from '../plugins/errors';
import type { CheckResult } from '../services/oneTimeCodes';

/** Turns a failed code check into the answer the code's screen shows. */
export function codeFailure(result: Exclude<CheckResult, { outcome: 'valid' | 'blocked' }> | { outcome: 'blocked'; retryAfterSeconds?: number }): ApiError {
  switch (result.outcome) {
    case 'wrong':
      return new ApiError(401, 'CODE_INVALID', 'The code is not right', { attemptsLeft: result.attemptsLeft });
    case 'blocked':
      // How long the block lasts, when known: the screen says until when.
      return new ApiError(423, 'CODE_BLOCKED', 'Too many wrong codes: blocked for a while', result.retryAfterSeconds ? { retryAfterSeconds: result.retryAfterSeconds } : undefined);
    case 'expired':
      return new ApiError(410, 'CODE_EXPIRED', 'The code has expired or was already used');
  }
}

/** A new code asked for within the cooldown of the last one: the answer says when another may be sent. */
export function resendTooSoon(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'RESEND_TOO_SOON', 'Wait before asking for another code', { retryAfterSeconds });
}
