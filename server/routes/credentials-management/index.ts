import type { FastifyInstance } from 'fastify';
import { LOGIN_ID_MAX_LENGTH, LOGIN_ID_MIN_LENGTH, canonicalIdDocument, isValidProductPassword } from '../../../src/validation';
import { ApiError } from '../../plugins/errors';
import { IdentityError } from '../../services/identity';
import { SealedDataError, unseal } from '../../services/sealedData';
import { codeFailure } from '../codeAnswers';
import { MessageBudgetExceeded, requesterOf, type Requester } from '../../services/messaging/budget';
import { MessageNotSent } from '../../services/messaging/messaging';
import { codeText, messageLocale, type MessageLocale } from '../../services/messaging/texts';

const ANSWER = { type: 'object', properties: { response: { type: 'string' }, resendAfterSeconds: { type: 'integer' } }, required: ['response'] } as const;

interface RecoveryData {
  userId: string;
  code: string;
  newPassword: string;
}

function isRecoveryData(value: unknown): value is RecoveryData {
  const data = value as Partial<RecoveryData> | null;
  return typeof data?.userId === 'string' && typeof data.code === 'string' && typeof data.newPassword === 'string';
}

/** Password recovery: an SMS code to the registered phone, then the new password sealed in the browser. */
export async function credentialsRoutes(app: FastifyInstance) {
  app.post<{ Body: { userId: string; sessionId: string } }>(
    '/password',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['recovery'],
        summary: 'Sends a recovery code by SMS; the answer is the same whether or not the user exists',
        body: {
          type: 'object',
          properties: {
            userId: { type: 'string', minLength: LOGIN_ID_MIN_LENGTH, maxLength: LOGIN_ID_MAX_LENGTH + 10 },
            sessionId: { type: 'string', pattern: '^[A-Za-z0-9-]{8,64}$' },
          },
          required: ['userId', 'sessionId'],
          additionalProperties: false,
        },
        response: { 200: ANSWER, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      if (!(await app.captchaGate.consumePass(request.body.sessionId, app.clock()))) throw new ApiError(403, 'CAPTCHA_REQUIRED', 'Solve the captcha first');
      const username = canonicalIdDocument(request.body.userId);
      // The work (and its time) does not depend on whether the user exists: it happens after the answer.
      setImmediate(() => {
        void sendRecoveryCode(app, username, requesterOf(request, `user:${username}`), messageLocale(request.headers['accept-language'])).catch((error: unknown) => {
          // A user id the identity service refuses is the client's mistake: noted, without a stack. Faults stay errors.
          if (error instanceof IdentityError) request.log.info({ reason: error.code }, 'recovery code not sent: the identity service refused the user id');
          // A spent budget was logged as a warning, with its counts, where it was refused; a provider's failure where it failed.
          else if (!(error instanceof MessageBudgetExceeded) && !(error instanceof MessageNotSent)) request.log.error({ err: error }, 'recovery code not sent');
        });
      });
      return { response: 'OK', resendAfterSeconds: app.codes.settings.resendSeconds };
    },
  );

  app.get(
    '/getKey',
    {
      schema: {
        tags: ['recovery'],
        summary: 'The public key the browser seals recovery data with (RSA-OAEP SHA-256, SPKI base64)',
        response: { 200: { type: 'object', properties: { keyId: { type: 'string' }, publicKey: { type: 'string' } }, required: ['keyId', 'publicKey'] } },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return app.sealingKeys.current(app.clock());
    },
  );

  app.put<{ Body: { data: string } }>(
    '/password',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['recovery'],
        summary: 'Sets a new password: data is {userId, code, newPassword} sealed for the server',
        body: { type: 'object', properties: { data: { type: 'string', minLength: 1, maxLength: 8192 } }, required: ['data'], additionalProperties: false },
        response: { 200: ANSWER, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      let data: unknown;
      try {
        data = await unseal(request.body.data, (keyId) => app.sealingKeys.privateKey(keyId, app.clock()));
      } catch (error) {
        if (error instanceof SealedDataError) throw new ApiError(400, error.code, 'The data cannot be read');
        throw error;
      }
      if (!isRecoveryData(data)) throw new ApiError(400, 'SEALED_DATA_MALFORMED', 'The data cannot be read');
      const username = canonicalIdDocument(data.userId);
      // The password rule first, the same for everyone: a weak password does not use up an attempt, and
      // this answer says nothing about the account.
      if (!isValidProductPassword(data.newPassword)) {
        throw new ApiError(400, 'VALIDATION_FAILED', 'The new password does not follow the rule', {
          errors: [{ field: 'newPassword', id: 'validations.diviloPassword' }],
        });
      }
      // An unknown user, a user without a live code and a wrong code get the same answer, counter included.
      const result = await app.codes.checkLatest('recovery', username, data.code, app.clock(), username, request.ip);
      if (result.outcome !== 'valid') {
        await app.auditLog.append({ actor: `user:${username}`, action: `recovery.code_${result.outcome}`, subject: `user:${username}`, requestId: request.id }, app.clock());
        throw codeFailure(result);
      }
      try {
        await app.identity.setPassword(username, data.newPassword, true);
        const user = await app.identity.getUser(username);
        // A new password ends every session the old one opened.
        await app.identity.globalSignOut(username);
        if (user) await app.loginSessions.revokeAllForUser(user.sub, app.clock());
      } catch (error) {
        // Not done (the identity service unreachable: 503): the same code and password go again, once it is back.
        await app.codes.reopen(result.answered);
        throw error;
      }
      await app.auditLog.append({ actor: `user:${username}`, action: 'recovery.password_changed', subject: `user:${username}`, requestId: request.id }, app.clock());
      return { response: 'OK' };
    },
  );
}

/**
 * Sends the recovery code after the answer has gone: to an existing, enabled user with a phone, not blocked, not
 * within the cooldown, and within the message budgets. Whatever stops it, the caller learns nothing.
 */
async function sendRecoveryCode(app: FastifyInstance, username: string, requester: Requester, locale: MessageLocale) {
  const user = await app.identity.getUser(username);
  const phone = user?.attributes.phone_number;
  if (!user || !user.enabled || !phone || (await app.codes.isBlocked('recovery', username, app.clock(), requester.clientAddress))) return;
  // Asking again within the cooldown, or several times at once, does not send another SMS.
  if ((await app.codes.claimTurn('recovery', username)) > 0) return;
  const ticket = await app.messages.charge({ channel: 'sms', to: phone, purpose: 'recovery-code' }, requester);
  const issued = await app.codes.issue({ purpose: 'recovery', subject: username, recipient: phone });
  // Not sent: logged where it failed; the cooldown is given back, so "send me a new code" goes at once.
  await app.messages.send(ticket, { text: codeText('recovery', locale, issued.code, app.codes.settings.ttlSeconds) }, () => app.codes.notDelivered(issued));
  await app.auditLog.append({ actor: `user:${username}`, action: 'recovery.code_sent', subject: `user:${username}`, requestId: requester.requestId }, app.clock());
}
