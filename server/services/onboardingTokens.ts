import { jwtVerify, SignJWT, errors } from 'jose';

export class OnboardingTokenError extends Error {
  constructor(readonly code: 'TOKEN_EXPIRED' | 'INVALID_TOKEN') {
    super(code);
  }
}

/** The claim that carries when the session ends, whatever its renewals (seconds since the epoch). */
const SESSION_END_CLAIM = 'session_end';

interface IssuedToken {
  token: string;
  /** Seconds the token lives: the token lifetime, or less when the session ends sooner. */
  expiresIn: number;
}

export interface VerifiedToken {
  applicationId: string;
  expiresAt: number;
  /** When the session ends (seconds since the epoch): no renewal goes past it. */
  sessionEndsAt: number;
}

/**
 * The onboarding session token (the SPA's JWT): names the application, lives ONBOARDING_TOKEN_SECONDS and is
 * renewed while the applicant is active, but never past the session's end, fixed when the session starts (the
 * e-mail code) and carried by every renewal. HS256 with a key derived from the server secret: only this server
 * issues and reads these tokens.
 */
export function onboardingTokens({
  key,
  lifetimeSeconds,
  sessionSeconds = 86_400,
  issuer,
  clock,
}: {
  key: Buffer;
  lifetimeSeconds: number;
  /** How long a session lasts from its start, renewals included (ONBOARDING_SESSION_MAX_SECONDS's default). */
  sessionSeconds?: number;
  issuer: string;
  clock: () => Date;
}) {
  const audience = 'divilo-onboarding';
  const nowSeconds = () => Math.floor(clock().getTime() / 1000);
  return {
    lifetimeSeconds,

    /**
     * A token for `subject` that lives until the session's end at the latest (seconds since the epoch): the end a
     * renewal carries on, or a new session's (`sessionSeconds` from now) when none is given.
     */
    async grant(subject: string, sessionEnd?: number): Promise<IssuedToken> {
      const now = nowSeconds();
      const sessionEndsAt = sessionEnd ?? now + sessionSeconds;
      const expiresAt = Math.min(now + lifetimeSeconds, sessionEndsAt);
      const token = await new SignJWT({ [SESSION_END_CLAIM]: sessionEndsAt })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(subject)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(now)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresIn: expiresAt - now };
    },

    /** `grant`'s token alone. */
    async issue(subject: string, sessionEnd?: number): Promise<string> {
      return (await this.grant(subject, sessionEnd)).token;
    },

    async verify(token: string): Promise<VerifiedToken> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer, audience, currentDate: clock() });
        if (!payload.sub || !payload.exp) throw new OnboardingTokenError('INVALID_TOKEN');
        const end = payload[SESSION_END_CLAIM];
        // A token from before sessions had an end ends with itself: it is not renewed.
        const sessionEndsAt = typeof end === 'number' && Number.isInteger(end) ? end : payload.exp;
        return { applicationId: payload.sub, expiresAt: payload.exp, sessionEndsAt };
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new OnboardingTokenError('TOKEN_EXPIRED');
        throw new OnboardingTokenError('INVALID_TOKEN');
      }
    },
  };
}

export type OnboardingTokens = ReturnType<typeof onboardingTokens>;
