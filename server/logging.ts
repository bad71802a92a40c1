import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/** Query parameters that carry secrets: their values never reach the logs. */
const SECRET_PARAMS = /^(response|token|code|verificationCode|password|newPassword|idToken|accessToken|refreshToken|X-Amz-Signature|X-Amz-Security-Token|X-Amz-Credential)$/i;

/** The request line as logged: secret query values replaced. */
export function redactUrl(url: string): string {
  const [path, query] = url.split('?', 2);
  if (!query) return path;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_PARAMS.test(key)) params.set(key, '[redacted]');
  return `${path}?${params.toString()}`;
}

/**
 * pino through Fastify: request bodies are never logged, headers that carry credentials are redacted,
 * and so are secret query values.
 */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-divilo-verification-signature"]',
        'req.headers["x-amz-security-token"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.diviloPassword',
        '*.code',
        '*.verificationCode',
        '*.token',
        '*.idToken',
        '*.accessToken',
        '*.refreshToken',
        '*.secret',
        '*.SecretKey',
        '*.SessionToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; id: string; ip?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        id: request.id,
        ip: request.ip,
      }),
    },
  };
}
