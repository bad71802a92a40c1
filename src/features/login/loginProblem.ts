import type { ApiError } from '../../services/baseQuery';
import type { SignInFailure } from './cognito';
import type { LoginProblem } from '../../state/authSlice';

/** The step of the login that failed: the captcha check, the password (SRP) or the session with its SMS. */
export type LoginStage = 'captcha' | 'password' | 'session';

const isUnreachable = (status: ApiError['status'] | undefined) => status === 'NETWORK_ERROR' || status === 'TIMEOUT' || (typeof status === 'number' && status >= 500);

export function loginProblemOf(stage: LoginStage, error: unknown, now: number = Date.now()): LoginProblem {
  if (stage === 'password') {
    const { code = '', message = '' } = (error ?? {}) as Partial<SignInFailure>;
    if (code === 'NotAuthorizedException' && /attempts exceeded/i.test(message)) return { kind: 'blocked', until: null };
    if (code === 'NotAuthorizedException' || code === 'UserNotFoundException') return { kind: 'credentials' };
    return { kind: 'unreachable' };
  }
  const { status, errorCode, data } = (error ?? {}) as Partial<ApiError>;
  // The password was right and the SMS provider failed: logging in again sends a code at once.
  if (errorCode === 'MESSAGE_NOT_SENT') return { kind: 'notSent' };
  if (isUnreachable(status)) return { kind: 'unreachable' };
  if (stage === 'captcha') return { kind: 'captcha' };
  const seconds = (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  if (status === 423 || errorCode === 'CODE_BLOCKED') {
    return { kind: 'blocked', until: typeof seconds === 'number' ? now + seconds * 1000 : null };
  }
  if (errorCode === 'MESSAGE_BUDGET_EXCEEDED') return { kind: 'tooManyMessages', until: now + (typeof seconds === 'number' ? seconds : 3600) * 1000 };
  if (status === 401 || status === 403) return { kind: 'credentials' };
  return { kind: 'unreachable' };
}
