// Requests Fastify refuses before any route sees them (a malformed URL, a path segment too long, a body that
// never arrives in full): answered in the shape of the area the client was talking to, as the routes' own
// errors are — `/s3` S3 XML, `/cognito` AWS JSON, everything else the API's `{ code, message }`.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STORAGE_CSP } from '../embedded/s3/contentSafety';
import { textElement, xmlDocument } from '../embedded/s3/xml';

type Area = 's3' | 'cognito' | 'api';

interface Refusal {
  status: number;
  /** The API's code, the S3 code and the AWS JSON type of the same refusal. */
  api: string;
  s3: string;
  aws: string;
  message: string;
}

const REFUSALS: Record<string, Refusal> = {
  FST_ERR_BAD_URL: { status: 400, api: 'BAD_URL', s3: 'InvalidURI', aws: 'SerializationException', message: "Couldn't parse the specified URI." },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, api: 'URL_TOO_LONG', s3: 'KeyTooLongError', aws: 'SerializationException', message: 'The address is too long.' },
  INCOMPLETE_BODY: {
    status: 400,
    api: 'INCOMPLETE_BODY',
    s3: 'IncompleteBody',
    aws: 'SerializationException',
    message: 'You did not provide the number of bytes specified by the Content-Length HTTP header.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    api: 'REQUEST_TIMEOUT',
    s3: 'RequestTimeout',
    aws: 'RequestTimeoutException',
    message: 'Your socket connection to the server was not read from or written to within the timeout period.',
  },
  BAD_REQUEST: { status: 400, api: 'BAD_REQUEST', s3: 'InvalidRequest', aws: 'SerializationException', message: 'The request could not be read.' },
};

function areaOf(url: string | undefined): Area {
  const path = (url ?? '/').split('?')[0];
  if (path === '/s3' || path.startsWith('/s3/')) return 's3';
  if (path === '/cognito' || path.startsWith('/cognito/')) return 'cognito';
  return 'api';
}

/** The body and headers of a refusal in an area's shape (the request's own path never goes back: it may hold anything). */
function answer(area: Area, refusal: Refusal): { contentType: string; headers: Record<string, string>; body: string } {
  if (area === 's3') {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    const body = xmlDocument('Error', textElement('Code', refusal.s3) + textElement('Message', refusal.message) + textElement('RequestId', requestId), false);
    return { contentType: 'application/xml', headers: { 'x-amz-request-id': requestId, 'content-security-policy': STORAGE_CSP, 'x-content-type-options': 'nosniff' }, body };
  }
  if (area === 'cognito') return { contentType: 'application/x-amz-json-1.1', headers: {}, body: JSON.stringify({ __type: refusal.aws, message: refusal.message }) };
  return { contentType: 'application/json; charset=utf-8', headers: {}, body: JSON.stringify({ code: refusal.api, message: refusal.message }) };
}

/** Fastify's `frameworkErrors`: refusals of a request that reached no route. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const refusal = REFUSALS[error.code] ?? REFUSALS.BAD_REQUEST;
  const { contentType, headers, body } = answer(areaOf(request.raw.url), refusal);
  request.log.info({ reason: error.code }, 'request refused before routing');
  return reply.status(refusal.status).headers(headers).type(contentType).send(body);
}

/** The path of the request each connection is carrying, for refusals that only know the socket. */
const pathOfSocket = new WeakMap<Socket, string>();

export function rememberRequestPath(request: FastifyRequest): void {
  pathOfSocket.set(request.raw.socket, request.raw.url ?? '/');
}

export function forgetRequestPath(request: FastifyRequest): void {
  pathOfSocket.delete(request.raw.socket);
}

/**
 * Fastify's `clientErrorHandler`: the connection broke before a full request arrived (a body shorter than its
 * Content-Length, a request that took longer than REQUEST_TIMEOUT_SECONDS, unreadable headers).
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  const code = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'ERR_HTTP_REQUEST_TIMEOUT' : error.code === 'ECONNRESET' ? undefined : pathOfSocket.has(socket) ? 'INCOMPLETE_BODY' : 'BAD_REQUEST';
  if (code && socket.writable) {
    const refusal = REFUSALS[code];
    const { contentType, headers, body } = answer(areaOf(pathOfSocket.get(socket)), refusal);
    const head = [`HTTP/1.1 ${refusal.status} ${refusal.status === 408 ? 'Request Timeout' : refusal.status === 414 ? 'URI Too Long' : 'Bad Request'}`, `Content-Type: ${contentType}`, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
