import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FieldError } from '../../src/validation/validate';
import { ApiError } from '../apiError';
import { isDatabaseUnavailable, unavailabilityReason } from '../db';
import { DISK_FULL_LOG, isDiskFull } from '../diskFull';
import { MessageBudgetExceeded } from '../services/messaging/budget';
import { MessageNotSent } from '../services/messaging/messaging';

export { ApiError };

type SchemaIssue = NonNullable<FastifyError['validation']>[number];

/** `/owners/0/percentage` → `owners[0].percentage`: the path form the shared validators use. */
function fieldOf(issue: SchemaIssue): string {
  const params = issue.params as { missingProperty?: string; additionalProperty?: string };
  const segments = issue.instancePath.split('/').slice(1);
  const child = params.missingProperty ?? params.additionalProperty;
  if (child !== undefined) segments.push(child);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

/** A schema failure as the message descriptor the browser translates (src/validation/messages.ts). */
function toFieldError(issue: SchemaIssue): FieldError {
  const field = fieldOf(issue);
  const params = issue.params as { limit?: number; type?: string; format?: string };
  switch (issue.keyword) {
    case 'required':
      return { field, id: 'validations.required' };
    case 'minLength':
      return { field, id: 'validations.minLength', values: { min: Number(params.limit) } };
    case 'maxLength':
      return { field, id: 'validations.maxLength', values: { max: Number(params.limit) } };
    case 'minimum':
      return { field, id: 'validations.minValue', values: { min: Number(params.limit) } };
    case 'maximum':
      return { field, id: 'validations.maxValue', values: { max: Number(params.limit) } };
    case 'type':
      if (params.type === 'integer') return { field, id: 'validations.integer' };
      if (params.type === 'number') return { field, id: 'validations.numeric' };
      return { field, id: 'validations.invalid' };
    case 'format':
      if (params.format === 'email') return { field, id: 'validations.email' };
      if (params.format === 'uri' || params.format === 'url') return { field, id: 'validations.url' };
      return { field, id: 'validations.invalid' };
    default:
      return { field, id: 'validations.invalid' };
  }
}

/** Fastify's own request errors, with a product code and a message that repeats nothing the client sent. */
const REQUEST_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: 'The body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: 'The body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE', message: 'The body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'This content type is not accepted' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST', message: 'The content length does not match the body' },
};

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT', 'ECONNABORTED', 'EPIPE', 'ERR_SOCKET_CONNECTION_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_SOCKET']);
/** The AWS SDK's names of a time limit passed or a service that cannot answer now (its retries spent). */
const UNAVAILABLE_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'ServiceUnavailable', 'ServiceUnavailableException', 'InternalError', 'InternalErrorException', 'SlowDown', 'ThrottlingException', 'TooManyRequestsException']);

/** A service the server calls (identity, storage, captcha, messaging) could not be reached or answer: the error or a cause says so. */
function isUnreachable(error: unknown): boolean {
  // Any error-like object: one made in another realm (a worker, a test's sandbox) is no `instanceof Error` here.
  for (let current = error as Partial<Error> | undefined, depth = 0; typeof current === 'object' && current !== null && depth < 5; current = current.cause as Partial<Error> | undefined, depth += 1) {
    const { code, $fault: fault } = current as { code?: unknown; $fault?: unknown };
    const message = String(current.message ?? '');
    // The SDK's answer of a service failing on its side (5xx), its retries spent; a wrapped socket hang-up or time-out.
    if ((typeof code === 'string' && UNREACHABLE.has(code)) || UNAVAILABLE_NAMES.has(String(current.name)) || fault === 'server' || /socket hang up|TimeoutError/.test(message) || [...UNREACHABLE].some((name) => message.includes(name))) {
      return true;
    }
  }
  return false;
}

const STATUS_CODES: Record<number, string> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 406: 'NOT_ACCEPTABLE', 413: 'BODY_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/**
 * Every error leaves as JSON `{ code, message }` with a stable code: schema failures as VALIDATION_FAILED
 * with one message descriptor per field, anything unexpected as INTERNAL_ERROR with no detail (the detail
 * goes to the log).
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      // A refusal that ends (a block, a cooldown) says when in the standard header as well as in its body.
      const retryAfter = error.details?.retryAfterSeconds;
      if (typeof retryAfter === 'number' && retryAfter > 0) reply.header('retry-after', String(retryAfter));
      return reply.status(error.statusCode).send({ code: error.code, message: error.message, ...error.details });
    }
    if (error instanceof MessageBudgetExceeded || error instanceof MessageNotSent) {
      // Whatever route asked for the message: the same answer, and the screen says when to try again.
      return reply
        .status(error instanceof MessageNotSent ? 503 : 429)
        .header('retry-after', String(error.retryAfterSeconds))
        .send({ code: error.code, message: error.message, retryAfterSeconds: error.retryAfterSeconds });
    }
    if ('validation' in error && error.validation) {
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message: 'The request is not valid', errors: error.validation.map(toFieldError) });
    }
    const known = error.code ? REQUEST_ERRORS[error.code] : undefined;
    if (known) return reply.status(known.status).send({ code: known.code, message: known.message });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Plugins' own 4xx (the rate limit's RATE_LIMITED, ...) keep their code; Fastify's internal names do not leave.
      const code = error.code && !error.code.startsWith('FST_') ? error.code : (STATUS_CODES[status] ?? 'BAD_REQUEST');
      return reply.status(status).send({ code, message: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      // A failover or a restart: the pool reconnects by itself, and the screen offers to try again.
      request.log.error({ event: 'database.unavailable', reason: unavailabilityReason(error) }, 'the database is unreachable: answered 503');
      return reply.status(503).header('retry-after', '5').send({ code: 'DATABASE_UNAVAILABLE', message: 'The service is not available right now; try again in a moment' });
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error, event: DISK_FULL_LOG.event }, DISK_FULL_LOG.message);
      return reply.status(507).send({ code: 'STORAGE_FULL', message: 'The server has no room to save this right now; nothing was saved. Try again later' });
    }
    if (isUnreachable(error)) {
      // An outage, not a bug: the client may try again, and the screen says so.
      request.log.error({ event: 'service.unreachable', err: error }, 'a service the request needs is unreachable');
      return reply.status(503).header('retry-after', '5').send({ code: 'SERVICE_UNAVAILABLE', message: 'A service is not reachable right now; try again in a moment' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ code: 'INTERNAL_ERROR', message: 'Something went wrong' });
  });
});
