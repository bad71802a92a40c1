// Who sent a request: AWS Signature Version 4, in the Authorization header or in the query string (presigned
// URLs), checked by signing the same request again with @smithy/signature-v4 as the S3 client does.
import type { IncomingHttpHeaders } from 'node:http';
import { headerSignature, headerValue, parseAmzDate, presignedSignature, sameSecret, splitRawUrl, type AwsCredentials } from '../sigv4';
import { type ChunkSigning, signingKeyOf, STREAMING_PAYLOADS, STREAMING_SIGNED, STREAMING_SIGNED_TRAILER } from './chunked';
import { errors } from './errors';

export type { AwsCredentials };

/** What the identity pool answers for the short-lived credentials it handed out. */
export interface TemporaryCredentials {
  secretAccessKey: string;
  sessionToken: string;
  identityId: string;
  expiresAt: Date;
}

/** The credentials minted for a key id, expired ones included (they are refused as ExpiredToken); undefined when unknown. */
export type ResolveTemporaryCredentials = (accessKeyId: string) => Promise<TemporaryCredentials | undefined>;

export type Principal = { kind: 'server' } | { kind: 'identity'; identityId: string };

interface Authenticated {
  principal: Principal;
  /** Header form: the hex SHA-256 the body must have, UNSIGNED-PAYLOAD or a STREAMING-* form; query form: always UNSIGNED-PAYLOAD. */
  payloadHash: string;
  presigned: boolean;
  /** The signed aws-chunked forms: what each chunk's signature chains from. */
  chunkSigning?: ChunkSigning;
}

export interface AuthSettings {
  region: string;
  serverCredentials: AwsCredentials;
  resolveTemporaryCredentials?: ResolveTemporaryCredentials;
  maxClockSkewSeconds: number;
}

interface ReceivedRequest {
  method: string;
  /** Path and query exactly as received, still percent-encoded. */
  rawUrl: string;
  headers: IncomingHttpHeaders;
}

export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const ALGORITHM = 'AWS4-HMAC-SHA256';
const HEX_SHA256 = /^[0-9a-f]{64}$/;
const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;

export function splitUrl(rawUrl: string): { path: string; query: Record<string, string | string[]> } {
  try {
    return splitRawUrl(rawUrl);
  } catch {
    throw errors.invalidUri();
  }
}

interface Scope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

function parseCredential(value: string, malformed: (message: string) => Error): Scope {
  const parts = value.split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request' || !parts[0]) throw malformed('the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".');
  return { accessKeyId: parts[0], date: parts[1], region: parts[2], service: parts[3] };
}

function checkScope(scope: Scope, amzDate: string, region: string, malformed: (message: string) => Error): void {
  if (scope.date !== amzDate.slice(0, 8)) throw malformed(`Invalid credential date "${scope.date}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`);
  if (scope.region !== region) throw malformed(`the region '${scope.region}' is wrong; expecting '${region}'`);
  if (scope.service !== 's3') throw malformed(`the service '${scope.service}' is wrong; expecting 's3'`);
}

/** The secret to check the signature with, and whose request it is; session tokens and expiry are enforced here. */
async function lookUpCredentials(
  accessKeyId: string,
  sessionToken: string | undefined,
  settings: AuthSettings,
  now: number,
): Promise<{ secretAccessKey: string; sessionToken?: string; principal: Principal }> {
  if (sameSecret(settings.serverCredentials.accessKeyId, accessKeyId)) {
    // Long-term credentials never carry a session token.
    if (sessionToken !== undefined) throw errors.invalidToken();
    return { secretAccessKey: settings.serverCredentials.secretAccessKey, principal: { kind: 'server' } };
  }
  const temporary = settings.resolveTemporaryCredentials ? await settings.resolveTemporaryCredentials(accessKeyId) : undefined;
  // Temporary credentials without their session token are unknown credentials, as on AWS.
  if (!temporary || sessionToken === undefined) throw errors.invalidAccessKeyId();
  if (!sameSecret(temporary.sessionToken, sessionToken)) throw errors.invalidToken();
  if (temporary.expiresAt.getTime() <= now) throw errors.expiredToken();
  return { secretAccessKey: temporary.secretAccessKey, sessionToken: temporary.sessionToken, principal: { kind: 'identity', identityId: temporary.identityId } };
}

function signedHeaderValues(request: ReceivedRequest, names: string[]): Record<string, string> {
  if (!names.includes('host')) throw errors.accessDenied('The host header must be signed.');
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = headerValue(request.headers, name);
    if (value === undefined) throw errors.signatureDoesNotMatch();
    headers[name] = value;
  }
  return headers;
}

/** How the S3 client signs: service s3, the path as sent (no double encoding). */
const signing = (scope: Scope, secretAccessKey: string, sessionToken?: string) => ({
  credentials: { accessKeyId: scope.accessKeyId, secretAccessKey, sessionToken },
  region: scope.region,
  service: 's3',
  uriEscapePath: false,
});

/** Throws the S3 error for a missing, malformed, stale, expired or wrong signature; answers who signed. */
export async function authenticate(request: ReceivedRequest, settings: AuthSettings, now: number): Promise<Authenticated> {
  const { path, query } = splitUrl(request.rawUrl);
  const authorization = headerValue(request.headers, 'authorization');
  const presigned = query['X-Amz-Signature'] !== undefined || query['X-Amz-Algorithm'] !== undefined;
  if (authorization !== undefined && presigned) throw errors.invalidArgument('Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified');
  if (authorization !== undefined) return verifyHeaderSignature(request, path, query, authorization, settings, now);
  if (presigned) return verifyPresignedUrl(request, path, query, settings, now);
  throw errors.accessDenied();
}

async function verifyHeaderSignature(
  request: ReceivedRequest,
  path: string,
  query: Record<string, string | string[]>,
  authorization: string,
  settings: AuthSettings,
  now: number,
): Promise<Authenticated> {
  const malformed = (message: string) => errors.authorizationHeaderMalformed(`The authorization header is malformed; ${message}`);
  if (!authorization.startsWith(`${ALGORITHM} `)) throw errors.invalidArgument('Unsupported Authorization Type');
  const fields: Record<string, string> = {};
  for (const field of authorization.slice(ALGORITHM.length + 1).split(',')) {
    const at = field.indexOf('=');
    if (at > 0) fields[field.slice(0, at).trim()] = field.slice(at + 1).trim();
  }
  const { Credential: credential, SignedHeaders: signedHeaderList, Signature: signature } = fields;
  if (!credential || !signedHeaderList || !signature) throw malformed('Credential, SignedHeaders and Signature are required.');
  if (!/^[0-9a-f]{64}$/.test(signature)) throw errors.signatureDoesNotMatch();
  const scope = parseCredential(credential, malformed);

  const amzDate = headerValue(request.headers, 'x-amz-date');
  const signingTime = parseAmzDate(amzDate);
  if (signingTime === undefined) throw errors.accessDenied('AWS authentication requires a valid Date or x-amz-date header');
  checkScope(scope, amzDate!, settings.region, malformed);
  const maxSkewMs = settings.maxClockSkewSeconds * 1000;
  if (Math.abs(now - signingTime) > maxSkewMs) throw errors.requestTimeTooSkewed(amzDate!, new Date(now).toISOString(), maxSkewMs);

  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256');
  if (payloadHash === undefined) throw errors.invalidRequest('Missing required header for this request: x-amz-content-sha256');
  if (payloadHash.startsWith('STREAMING-') && !STREAMING_PAYLOADS.includes(payloadHash)) throw errors.notImplemented(`aws-chunked uploads signed as ${payloadHash}`);
  if (payloadHash !== UNSIGNED_PAYLOAD && !STREAMING_PAYLOADS.includes(payloadHash) && !HEX_SHA256.test(payloadHash)) throw errors.invalidArgument('x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-... or a valid sha256 value.');

  const signedHeaders = signedHeaderList.split(';');
  // The payload hash enters the signature through this header, so it must be among the signed ones.
  if (!signedHeaders.includes('x-amz-content-sha256')) throw errors.accessDenied('The x-amz-content-sha256 header must be signed.');
  const headers = signedHeaderValues(request, signedHeaders);
  const credentials = await lookUpCredentials(scope.accessKeyId, headerValue(request.headers, 'x-amz-security-token'), settings, now);

  // The token, like every header, counts only where the client signed it: it is not added again here.
  const expected = await headerSignature(
    { method: request.method, path, query, headers },
    { ...signing(scope, credentials.secretAccessKey), signingDate: new Date(signingTime) },
  );
  if (!sameSecret(expected.padEnd(64, '0'), signature)) throw errors.signatureDoesNotMatch();
  const chunkSigning =
    payloadHash === STREAMING_SIGNED || payloadHash === STREAMING_SIGNED_TRAILER
      ? {
          signingKey: signingKeyOf(credentials.secretAccessKey, scope.date, scope.region, scope.service),
          amzDate: amzDate!,
          scope: `${scope.date}/${scope.region}/${scope.service}/aws4_request`,
          seedSignature: signature,
        }
      : undefined;
  return { principal: credentials.principal, payloadHash, presigned: false, chunkSigning };
}

function single(query: Record<string, string | string[]>, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw errors.authorizationQueryParametersError(`${name} must appear once.`);
  return value;
}

async function verifyPresignedUrl(
  request: ReceivedRequest,
  path: string,
  query: Record<string, string | string[]>,
  settings: AuthSettings,
  now: number,
): Promise<Authenticated> {
  const malformed = (message: string) => errors.authorizationQueryParametersError(`Error parsing the X-Amz-Credential parameter; ${message}`);
  const algorithm = single(query, 'X-Amz-Algorithm');
  const credential = single(query, 'X-Amz-Credential');
  const amzDate = single(query, 'X-Amz-Date');
  const expires = single(query, 'X-Amz-Expires');
  const signedHeaderList = single(query, 'X-Amz-SignedHeaders');
  const signature = single(query, 'X-Amz-Signature');
  const sessionToken = single(query, 'X-Amz-Security-Token');
  if (!algorithm || !credential || !amzDate || !expires || !signedHeaderList || !signature) {
    throw errors.authorizationQueryParametersError(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  if (algorithm !== ALGORITHM) throw errors.authorizationQueryParametersError('X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  // Presigned URLs carry no payload hash: they are accepted for downloads only, so every upload is hashed.
  if (request.method !== 'GET' && request.method !== 'HEAD') throw errors.accessDenied('Presigned URLs are accepted for GET and HEAD only.');
  if (!/^[0-9a-f]{64}$/.test(signature)) throw errors.signatureDoesNotMatch();
  const scope = parseCredential(credential, malformed);
  const signingTime = parseAmzDate(amzDate);
  if (signingTime === undefined) throw errors.authorizationQueryParametersError('X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd\'T\'HHmmss\'Z\'"');
  if (!/^[1-9]\d{0,6}$/.test(expires) || Number(expires) > MAX_PRESIGNED_SECONDS) {
    throw errors.authorizationQueryParametersError('X-Amz-Expires must be a whole number of seconds from 1 to 604800 (one week).');
  }
  checkScope(scope, amzDate, settings.region, malformed);
  if (signingTime - now > settings.maxClockSkewSeconds * 1000) throw errors.accessDenied('Request is not valid yet');
  if (now > signingTime + Number(expires) * 1000) throw errors.accessDenied('Request has expired');

  const signedHeaders = signedHeaderList.split(';');
  const headers = signedHeaderValues(request, signedHeaders);
  const credentials = await lookUpCredentials(scope.accessKeyId, sessionToken, settings, now);

  const expected = await presignedSignature(
    { method: request.method, path, query, headers },
    { ...signing(scope, credentials.secretAccessKey, credentials.sessionToken), signingDate: new Date(signingTime), expiresIn: Number(expires) },
  );
  if (!sameSecret(expected.padEnd(64, '0'), signature)) throw errors.signatureDoesNotMatch();
  return { principal: credentials.principal, payloadHash: UNSIGNED_PAYLOAD, presigned: true };
}
