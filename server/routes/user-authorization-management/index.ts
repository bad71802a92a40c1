import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maskPhone } from '../../services/messaging/types';
import { codeFailure, resendTooSoon } from '../codeAnswers';
import { ApiError } from '../../plugins/errors';
import { answersPersonalData } from '../../plugins/personalData';
import { IdentityError, type IdTokenClaims } from '../../services/identity';
import { APPLICATION_REJECTED_CODE, signInRefusal } from '../../services/onboardingGate';
import { requesterOf } from '../../services/messaging/budget';
import { codeText, messageLocale } from '../../services/messaging/texts';
import { SIGNED_IN_COOKIE } from '../../../src/storage/signedInHint';

export const SESSION_COOKIE = 'divilo_session';

const SESSION_COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: 'strict', path: '/' } as const;
/** The hint beside it: no secret, readable by the app, which asks get-session only when it is there. */
const SIGNED_IN_OPTIONS = { httpOnly: false, secure: true, sameSite: 'strict', path: '/' } as const;

/** Sets the session cookie and its hint (both end with the browser). */
function setSessionCookies(reply: FastifyReply, value: string): void {
  // HttpOnly: no script reads it; Secure and SameSite=Strict as the bank's cookies must be.
  reply.setCookie(SESSION_COOKIE, value, SESSION_COOKIE_OPTIONS);
  reply.setCookie(SIGNED_IN_COOKIE, '1', SIGNED_IN_OPTIONS);
}

/** Removes the session cookie and its hint: the session ended, or the browser's is gone. */
export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
  reply.clearCookie(SIGNED_IN_COOKIE, SIGNED_IN_OPTIONS);
}

export const hashSessionId = (value: string) => createHash('sha256').update(value).digest('hex');

const SESSION_ID_HEADER = { type: 'string', pattern: '^[A-Za-z0-9-]{8,64}$' } as const;
const SESSION_ANSWER = {
  type: 'object',
  properties: { maskedPhone: { type: 'string' }, token: { type: 'string' }, resendAfterSeconds: { type: 'integer' } },
  required: ['maskedPhone', 'token'],
} as const;

interface SessionSettings {
  idleSeconds: number;
  /** A customer session never lasts longer than this, however active. */
  maxSeconds: number;
}

/** What the SMS step sends: base64 of JSON { token, verificationCode }. */
function readSignature(header: string): { token: string; verificationCode: string } {
  try {
    const parsed = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { token?: unknown; verificationCode?: unknown };
    if (typeof parsed.token === 'string' && typeof parsed.verificationCode === 'string' && parsed.token.length <= 128) {
      return { token: parsed.token, verificationCode: parsed.verificationCode };
    }
  } catch {
    // falls through to the error below
  }
  throw new ApiError(400, 'MALFORMED_SIGNATURE', 'x-divilo-verification-signature must be base64 JSON { token, verificationCode }');
}

/** How old a sign-in may be for its id token's phone to be taken as the account's (docs/login.md). */
export const TOKEN_PHONE_MAX_AGE_SECONDS = 300;
/** How far ahead of this server's clock the identity service's may be (a sign-in "in the future"). */
const CLOCK_SKEW_SECONDS = 60;

/**
 * The phone the id token carries, when the sign-in it comes from is at most TOKEN_PHONE_MAX_AGE_SECONDS old:
 * the identity service wrote it into the token at that sign-in. Otherwise undefined, and the account is read.
 */
function freshTokenPhone(claims: IdTokenClaims, now: Date): string | undefined {
  const phone = claims.phone_number;
  const authTime = claims.auth_time;
  if (typeof phone !== 'string' || !phone || typeof authTime !== 'number') return undefined;
  const age = now.getTime() / 1000 - authTime;
  return age >= -CLOCK_SKEW_SECONDS && age <= TOKEN_PHONE_MAX_AGE_SECONDS ? phone : undefined;
}

/**
 * The answer for an account whose onboarding is not complete. The identity service's pre-token-generation check
 * (the Lambda on Cognito) refuses such a sign-in first; this holds where that check is missing or was
 * passed before the account changed. The app sends the customer where ERR-2809 does.
 */
const onboardingNotComplete = (reason: string) =>
  reason === APPLICATION_REJECTED_CODE
    ? new ApiError(403, 'APPLICATION_REJECTED', 'The application of this account was rejected', { reason })
    : new ApiError(403, 'ONBOARDING_NOT_COMPLETE', 'The application of this account is not approved yet', { reason });

/** The audit entry of a refused sign-in: a rejected application, or one not approved yet. */
const refusalAction = (reason: string) => (reason === APPLICATION_REJECTED_CODE ? 'login.refused_rejected' : 'login.refused_onboarding');

/** Customer sessions after login: start one (SMS code), confirm it, resend the code, read it, end it. */
export async function userAuthorizationRoutes(app: FastifyInstance, settings: SessionSettings) {
  answersPersonalData(app);
  const liveSession = async (request: FastifyRequest) => {
    const cookie = request.cookies[SESSION_COOKIE];
    return cookie ? app.loginSessions.findLive(hashSessionId(cookie), settings.idleSeconds, app.clock()) : undefined;
  };

  const startSession = async (reply: FastifyReply, user: { sub: string; username: string }) => {
    const value = randomBytes(32).toString('base64url');
    const now = app.clock();
    await app.loginSessions.create({ idHash: hashSessionId(value), userSub: user.sub, username: user.username, expiresAt: new Date(now.getTime() + settings.maxSeconds * 1000) }, now);
    setSessionCookies(reply, value);
  };

  app.post<{ Headers: { 'x-divilo-session-id': string; authorization?: string; 'x-divilo-verification-signature'?: string } }>(
    '/create-session',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['login'],
        summary: 'Starts a customer session (SMS code sent) or, with the verification signature, confirms it',
        description:
          'With `Authorization: Bearer <id token>`: 200 and an SMS code, or 201 when this browser already holds a confirmed session. ' +
          'With `x-divilo-verification-signature` (base64 JSON {token, verificationCode}): 201 and the session cookie. ' +
          'An account whose onboarding is not complete gets 403 `ONBOARDING_NOT_COMPLETE` (`reason: "ERR-2809"`) at either step, ' +
          'one whose application was rejected 403 `APPLICATION_REJECTED` (`reason: "ERR-2810"`). ' +
          '429 MESSAGE_BUDGET_EXCEEDED { retryAfterSeconds } when the SMS to this phone, for this customer, from this client or in all are spent for now.',
        headers: {
          type: 'object',
          properties: {
            'x-divilo-session-id': SESSION_ID_HEADER,
            authorization: { type: 'string', maxLength: 8192 },
            'x-divilo-verification-signature': { type: 'string', maxLength: 1024 },
          },
          required: ['x-divilo-session-id'],
        },
        response: { 200: SESSION_ANSWER, 201: SESSION_ANSWER, '4xx': { $ref: 'error#' }, 503: { $ref: 'error#' } },
      },
    },
    async (request, reply) => {
      const sessionId = request.headers['x-divilo-session-id'];
      const signature = request.headers['x-divilo-verification-signature'];

      if (signature) {
        const { token, verificationCode } = readSignature(signature);
        const challenge = await app.codes.findByToken(token, sessionId);
        if (!challenge || challenge.purpose !== 'login') throw codeFailure({ outcome: 'expired' });
        const result = await app.codes.check(challenge.id, verificationCode, app.clock(), request.ip);
        if (result.outcome !== 'valid') {
          await app.auditLog.append({ actor: `user:${challenge.subject}`, action: `login.code_${result.outcome}`, subject: `user:${challenge.subject}`, requestId: request.id }, app.clock());
          throw codeFailure(result);
        }
        // The account as it is now: still enabled, and the code went to the phone it still has. The identity service
        // unreachable (503), the code stays good for the same answer once it is back.
        const user = await app.identity.getUser(result.subject).catch(async (error: unknown) => {
          await app.codes.reopen(result.answered);
          throw error;
        });
        if (!user || !user.enabled || user.attributes.phone_number !== result.recipient) throw codeFailure({ outcome: 'expired' });
        const refusal = signInRefusal(user.attributes);
        if (refusal) {
          await app.auditLog.append({ actor: `user:${result.subject}`, action: refusalAction(refusal), subject: `user:${result.subject}`, requestId: request.id }, app.clock());
          throw onboardingNotComplete(refusal);
        }
        await startSession(reply, { sub: user.sub, username: user.username });
        await app.auditLog.append({ actor: `user:${result.subject}`, action: 'login.session_started', subject: `user:${result.subject}`, requestId: request.id }, app.clock());
        return reply.status(201).send({ maskedPhone: maskPhone(result.recipient), token: '' });
      }

      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer) throw new ApiError(401, 'TOKEN_REQUIRED', 'An id token or a verification signature is required');
      if (!(await app.captchaGate.consumePass(sessionId, app.clock()))) throw new ApiError(403, 'CAPTCHA_REQUIRED', 'Solve the captcha first');
      const claims = await app.identity.verifyIdToken(bearer).catch((error: unknown) => {
        // The keys could not be fetched: the token may be fine, and the login form says the service is away.
        if (error instanceof IdentityError && error.code === 'UNAVAILABLE') throw new ApiError(503, 'IDENTITY_UNAVAILABLE', 'The identity service cannot be reached');
        throw new ApiError(401, 'INVALID_TOKEN', 'The id token is not valid');
      });
      const username = claims['cognito:username'];
      // The id token carries the account's onboarding status (the app client reads custom:onboarding_status).
      const refusal = signInRefusal(claims as Record<string, string | undefined>);
      if (refusal) {
        await app.auditLog.append({ actor: `user:${username}`, action: refusalAction(refusal), subject: `user:${username}`, requestId: request.id }, app.clock());
        throw onboardingNotComplete(refusal);
      }
      const existing = await liveSession(request);
      if (existing && existing.userSub === claims.sub) return reply.status(201).send({ maskedPhone: '', token: '' });
      // Another client's wrong codes do not stop this one: only its own block, or its address's, does.
      const blocked = await app.codes.blockedFor('login', username, app.clock(), request.ip);
      if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });

      const phone = freshTokenPhone(claims, app.clock()) ?? (await app.identity.getUser(username))?.attributes.phone_number;
      if (!phone) throw new ApiError(409, 'NO_PHONE', 'There is no phone to send the code to');
      const ticket = await app.messages.charge({ channel: 'sms', to: phone, purpose: 'login-code' }, requesterOf(request, `user:${username}`));
      const issued = await app.codes.issue({ purpose: 'login', subject: username, recipient: phone, sessionId });
      await app.messages.send(ticket, { text: codeText('login', messageLocale(request.headers['accept-language']), issued.code, app.codes.settings.ttlSeconds) }, () => app.codes.notDelivered(issued));
      await app.auditLog.append({ actor: `user:${username}`, action: 'login.code_sent', subject: `user:${username}`, requestId: request.id }, app.clock());
      return { maskedPhone: maskPhone(phone), token: issued.token, resendAfterSeconds: issued.resendAfterSeconds };
    },
  );

  app.post<{ Headers: { 'x-divilo-session-id': string }; Body: { token: string } }>(
    '/resend-code',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['login'],
        summary: 'Sends a new SMS code for a pending login, once the cooldown is over',
        headers: { type: 'object', properties: { 'x-divilo-session-id': SESSION_ID_HEADER }, required: ['x-divilo-session-id'] },
        body: { type: 'object', properties: { token: { type: 'string', minLength: 1, maxLength: 128 } }, required: ['token'], additionalProperties: false },
        response: {
          200: { type: 'object', properties: { maskedPhone: { type: 'string' }, resendAfterSeconds: { type: 'integer' } }, required: ['maskedPhone', 'resendAfterSeconds'] },
          '4xx': { $ref: 'error#' },
        },
      },
    },
    async (request) => {
      const challenge = await app.codes.findByToken(request.body.token, request.headers['x-divilo-session-id']);
      if (!challenge || challenge.purpose !== 'login') throw codeFailure({ outcome: 'expired' });
      // Blocked, the person is told until when (the block used up the challenge).
      const blocked = await app.codes.blockedFor('login', challenge.subject, app.clock(), request.ip);
      if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });
      const ready = await app.codes.resendable(challenge.id);
      if (ready.outcome === 'too-soon') throw resendTooSoon(ready.retryAfterSeconds);
      if (ready.outcome !== 'ready') throw codeFailure(ready);
      const ticket = await app.messages.charge({ channel: 'sms', to: ready.recipient, purpose: 'login-code' }, requesterOf(request, `user:${challenge.subject}`));
      const result = await app.codes.resend(challenge.id);
      if (result.outcome === 'too-soon') throw resendTooSoon(result.retryAfterSeconds);
      if (result.outcome !== 'sent') throw codeFailure(result);
      await app.messages.send(ticket, { text: codeText('login', messageLocale(request.headers['accept-language']), result.code, app.codes.settings.ttlSeconds) }, () => app.codes.notDelivered(result));
      await app.auditLog.append({ actor: `user:${challenge.subject}`, action: 'login.code_resent', subject: `user:${challenge.subject}`, requestId: request.id }, app.clock());
      return { maskedPhone: maskPhone(result.recipient), resendAfterSeconds: result.resendAfterSeconds };
    },
  );

  app.get(
    '/get-session',
    {
      schema: {
        tags: ['login'],
        summary: 'Whether this browser holds a live customer session (renews it)',
        response: { 200: { type: 'object', properties: { authenticated: { const: true } }, required: ['authenticated'] }, 401: { $ref: 'error#' } },
      },
    },
    async (request, reply) => {
      const session = await liveSession(request);
      // The hint goes with the answer: the app stops asking until the next login.
      if (!session) {
        clearSessionCookies(reply);
        return reply.status(401).send({ code: 'NO_SESSION', message: 'No live session' });
      }
      await app.loginSessions.touch(session.idHash, app.clock());
      return { authenticated: true };
    },
  );

  app.post(
    '/logout',
    // The session cookie authorises it: from the product's own pages only, as JSON (sameOrigin.ts).
    { onRequest: app.sameOriginWrites({ json: true }), schema: { tags: ['login'], summary: 'Ends the customer session of this browser', response: { 204: { type: 'null' } } } },
    async (request, reply) => {
      const cookie = request.cookies[SESSION_COOKIE];
      if (cookie) {
        const session = await app.loginSessions.findLive(hashSessionId(cookie), settings.idleSeconds, app.clock());
        await app.loginSessions.revoke(hashSessionId(cookie), app.clock());
        if (session) await app.auditLog.append({ actor: `user:${session.userSub}`, action: 'login.session_ended', subject: `user:${session.userSub}`, requestId: request.id }, app.clock());
      }
      clearSessionCookies(reply);
      return reply.status(204).send();
    },
  );
}
