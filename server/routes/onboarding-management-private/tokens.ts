import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';
import type { Application, ApplicationStatus } from '../../repositories/applicationRepository';
import { OnboardingTokenError, type VerifiedToken } from '../../services/onboardingTokens';

/** The subject of a sign-up token: a registration until its e-mail code is confirmed, then the application's id. */
const REGISTRATION_PREFIX = 'registration:';

export const isRegistrationSubject = (subject: string) => subject.startsWith(REGISTRATION_PREFIX);

/** Signed, approved or rejected: the applicant's part is over, and its token reads the status and nothing else. */
const CLOSED_STATUSES: readonly ApplicationStatus[] = ['pending-review', 'approved', 'rejected'];
export const isClosed = (status: ApplicationStatus) => CLOSED_STATUSES.includes(status);

/** 409 APPLICATION_CLOSED, with the page the journey ended on (the SPA goes there). */
export const applicationClosed = () => new ApiError(409, 'APPLICATION_CLOSED', 'This application can no longer change', { currentStep: 'welcome' });

/** The live onboarding token of the request: what it names and until when; 401 TOKEN_EXPIRED or INVALID_TOKEN otherwise. */
export async function sessionOf(app: FastifyInstance, request: FastifyRequest): Promise<VerifiedToken> {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  try {
    return await app.onboardingTokens.verify(bearer);
  } catch (error) {
    if (error instanceof OnboardingTokenError) throw new ApiError(401, error.code, 'The onboarding session is not valid');
    throw error;
  }
}

/** Whatever a live onboarding token names (a sign-up or an application): what a renewal keeps. */
async function subjectOf(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  return (await sessionOf(app, request)).applicationId;
}

/** The application the bearer token names, whatever its status (its status is all a closed one may read). */
export async function anyApplicationOf(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const subject = await subjectOf(app, request);
  if (isRegistrationSubject(subject)) throw new ApiError(401, 'INVALID_TOKEN', 'Confirm the e-mail code first');
  return subject;
}

/**
 * The application the request's bearer token names, read: 401 TOKEN_EXPIRED or INVALID_TOKEN otherwise (a sign-up's
 * token included), 404 when it is gone, 409 APPLICATION_CLOSED once it is signed, approved or rejected.
 */
export async function openApplicationOf(app: FastifyInstance, request: FastifyRequest): Promise<Application> {
  const application = await app.applications.find(await anyApplicationOf(app, request));
  if (!application) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
  if (isClosed(application.status)) throw applicationClosed();
  return application;
}

/** The id of the application `openApplicationOf` reads, for a route that needs no more. */
export const applicationOf = async (app: FastifyInstance, request: FastifyRequest): Promise<string> => (await openApplicationOf(app, request)).id;

/** The sign-up waiting for its e-mail code that the bearer token names; 401 otherwise. */
export async function registrationOf(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const subject = await subjectOf(app, request);
  if (!isRegistrationSubject(subject)) throw new ApiError(401, 'INVALID_TOKEN', 'This session has no sign-up waiting for a code');
  return subject.slice(REGISTRATION_PREFIX.length);
}
