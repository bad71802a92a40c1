import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';
import { OnboardingTokenError } from '../../services/onboardingTokens';

/** The subject of a sign-up token: a registration until its e-mail code is confirmed, then the application's id. */
const REGISTRATION_PREFIX = 'registration:';

export const registrationSubject = (registrationId: string) => `${REGISTRATION_PREFIX}${registrationId}`;

/** Whatever a live onboarding token names (a sign-up or an application): what a renewal keeps. */
export async function subjectOf(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  try {
    return (await app.onboardingTokens.verify(bearer)).applicationId;
  } catch (error) {
    if (error instanceof OnboardingTokenError) throw new ApiError(401, error.code, 'The onboarding session is not valid');
    throw error;
  }
}

/** The application the request's bearer token names; 401 TOKEN_EXPIRED or INVALID_TOKEN otherwise (a sign-up's token included). */
export async function applicationOf(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const subject = await subjectOf(app, request);
  if (subject.startsWith(REGISTRATION_PREFIX)) throw new ApiError(401, 'INVALID_TOKEN', 'Confirm the e-mail code first');
  return subject;
}

/** The sign-up waiting for its e-mail code that the bearer token names; 401 otherwise. */
export async function registrationOf(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const subject = await subjectOf(app, request);
  if (!subject.startsWith(REGISTRATION_PREFIX)) throw new ApiError(401, 'INVALID_TOKEN', 'This session has no sign-up waiting for a code');
  return subject.slice(REGISTRATION_PREFIX.length);
}
