import { jwtVerify, SignJWT, errors } from 'jose';

export class OnboardingTokenError extends Error {
  constructor(readonly code: 'TOKEN_EXPIRED' | 'INVALID_TOKEN') {
    super(code);
  }
}

/**
 * The onboarding session token (the SPA's JWT): names the application, lives ONBOARDING_TOKEN_SECONDS and is
 * renewed while the applicant is active. HS256 with a key derived from the server secret: only this server
 * issues and reads these tokens.
 */
export function onboardingTokens({ key, lifetimeSeconds, issuer }: { key: Buffer; lifetimeSeconds: number; issuer: string }) {
  const audience = 'divilo-onboarding';
  return {
    lifetimeSeconds,

    async issue(applicationId: string): Promise<string> {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(applicationId)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(`${lifetimeSeconds}s`)
        .sign(key);
    },

    async verify(token: string): Promise<{ applicationId: string; expiresAt: number }> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer, audience });
        if (!payload.sub || !payload.exp) throw new OnboardingTokenError('INVALID_TOKEN');
        return { applicationId: payload.sub, expiresAt: payload.exp };
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new OnboardingTokenError('TOKEN_EXPIRED');
        throw new OnboardingTokenError('INVALID_TOKEN');
      }
    },
  };
}

export type OnboardingTokens = ReturnType<typeof onboardingTokens>;
