import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import type { FastifyServerOptions } from 'fastify';
import { stdSerializers, type DestinationStream } from 'pino';

/** Field names whose values are secrets wherever they appear (body, query, a logged object). */
const SECRET_FIELDS = [
  'password',
  'diviloPassword',
  'newPassword',
  'code',
  'verificationCode',
  'token',
  'idToken',
  'accessToken',
  'refreshToken',
  'secret',
  'SecretKey',
  'SessionToken',
] as const;

/** Query parameters that carry secrets: the fields above, the captcha response and presigned-URL signatures. */
const SECRET_PARAMS = new Set(
  [...SECRET_FIELDS, 'response', 'X-Amz-Signature', 'X-Amz-Security-Token', 'X-Amz-Credential'].map((name) => name.toLowerCase()),
);

/** Headers that carry credentials. */
const SECRET_HEADERS = ['authorization', 'cookie', 'x-divilo-verification-signature', 'x-amz-security-token'];

const REDACTED = '[redacted]';

/** A query string (without its `?`) with secret values replaced: the logs' rule, which traces follow too. */
export function redactQuery(query: string): string {
  const params = new URLSearchParams(query);
  for (const key of new Set(params.keys())) if (SECRET_PARAMS.has(key.toLowerCase())) params.set(key, REDACTED);
  return params.toString();
}

/** The request line as logged: secret query values replaced. */
function redactUrl(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : `${url.slice(0, at)}?${redactQuery(url.slice(at + 1))}`;
}

/**
 * The ids of the span a line is logged in (the request's, when traces are on), so a log line leads to its trace.
 * Without the tracing SDK there is no active span and nothing is added.
 */
function traceIds(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** Where redaction applies: the field itself and up to two levels down (`{ body: { user: { password } } }`). */
const redactPaths = [
  ...SECRET_HEADERS.flatMap((name) => [`req.headers["${name}"]`, `headers["${name}"]`]),
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

/**
 * pino through Fastify. Request bodies and headers are never logged (the request serializer keeps the
 * method, the URL with secret query values replaced, the id and the address); any secret field or header
 * that reaches a log call anyway is censored.
 */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: redactPaths, censor: REDACTED },
    mixin: traceIds,
    serializers: {
      req: (request: { method: string; url: string; id: string; ip?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        id: request.id,
        ip: request.ip,
      }),
      // An error's own code (ECONNREFUSED, 23505, ...) is no secret and helps: renamed so `*.code` leaves it alone.
      err: (error: Error & { code?: unknown }) => {
        const { code, ...rest } = stdSerializers.err(error);
        return code === undefined ? rest : { ...rest, errorCode: code };
      },
    },
  };
}
