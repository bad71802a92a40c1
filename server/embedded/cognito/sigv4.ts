// Checks the AWS Signature Version 4 of an admin call by signing the same request again with the shared secret.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { AwsError } from './errors';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface ReceivedRequest {
  method: string;
  /** The request target exactly as received (path and query, still percent-encoded). */
  rawUrl: string;
  headers: IncomingHttpHeaders;
  body: Buffer | string;
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request, ?SignedHeaders=([a-z0-9;\-_.]+), ?Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const missingToken = () => new AwsError('MissingAuthenticationTokenException', 'Missing Authentication Token');
const incomplete = (message: string) => new AwsError('IncompleteSignatureException', message);
const unrecognized = () => new AwsError('UnrecognizedClientException', 'The security token included in the request is invalid.');
const mismatch = () =>
  new AwsError(
    'InvalidSignatureException',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  );

function parseAmzDate(value: string): number | undefined {
  const m = AMZ_DATE.exec(value);
  if (!m) return undefined;
  const time = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(time) ? undefined : time;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** AWS decodes the query before canonicalising it; `+` is a literal plus, not a space. */
function parseQuery(query: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const key = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1));
    const existing = result[key];
    result[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}

/**
 * Throws the AWS error for a missing, malformed, stale or wrong signature; returns when the request was signed
 * with `credentials` for `service` within `maxSkewSeconds` of `now`.
 */
export async function verifySignatureV4(
  request: ReceivedRequest,
  options: { credentials: AwsCredentials; service: string; now: number; maxSkewSeconds: number },
): Promise<void> {
  const authorization = headerValue(request.headers, 'authorization');
  if (!authorization) throw missingToken();
  const match = AUTHORIZATION.exec(authorization);
  if (!match) throw incomplete('Authorization header requires Credential, SignedHeaders and Signature, in AWS4-HMAC-SHA256 format.');
  const [, accessKeyId, scopeDate, region, service, signedHeaderList, signature] = match;

  const amzDate = headerValue(request.headers, 'x-amz-date');
  const signingTime = amzDate ? parseAmzDate(amzDate) : undefined;
  if (signingTime === undefined) throw incomplete('Authorization header requires existence of either a \'X-Amz-Date\' or a \'Date\' header.');
  if (!amzDate!.startsWith(scopeDate)) throw mismatch();

  // The key id is not secret, but comparing it in constant time costs nothing.
  const expectedKey = Buffer.from(options.credentials.accessKeyId);
  const givenKey = Buffer.from(accessKeyId);
  if (expectedKey.length !== givenKey.length || !timingSafeEqual(expectedKey, givenKey)) throw unrecognized();
  // Static server credentials never carry a session token.
  if (request.headers['x-amz-security-token'] !== undefined) throw unrecognized();
  if (service !== options.service) {
    throw new AwsError('InvalidSignatureException', `Credential should be scoped to correct service: '${options.service}'.`);
  }

  if (Math.abs(options.now - signingTime) > options.maxSkewSeconds * 1000) {
    throw new AwsError('InvalidSignatureException', 'Signature expired: the request time is too far from the server time.');
  }

  const signedHeaders = signedHeaderList.split(';');
  if (!signedHeaders.includes('host')) throw mismatch();
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = headerValue(request.headers, name);
    if (value === undefined) throw mismatch();
    headers[name] = value;
  }

  // The signer trusts a signed x-amz-content-sha256 instead of hashing the body, so the header must be true.
  const contentSha = headers['x-amz-content-sha256'];
  if (contentSha !== undefined && contentSha !== createHash('sha256').update(request.body).digest('hex')) throw mismatch();

  const queryAt = request.rawUrl.indexOf('?');
  const path = queryAt < 0 ? request.rawUrl : request.rawUrl.slice(0, queryAt);
  let query: Record<string, string | string[]>;
  try {
    query = queryAt < 0 ? {} : parseQuery(request.rawUrl.slice(queryAt + 1));
  } catch {
    throw mismatch();
  }

  const signer = new SignatureV4({ credentials: options.credentials, region, service, sha256: Sha256, applyChecksum: false });
  const signed = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: headers.host, path, query, headers, body: request.body },
    // Everything the client listed is signed again, even the headers the signer would skip by default.
    { signingDate: new Date(signingTime), signableHeaders: new Set(signedHeaders) },
  );
  const expected = /Signature=([0-9a-f]{64})$/.exec(String(signed.headers.authorization))?.[1] ?? '';
  if (!timingSafeEqual(Buffer.from(expected.padEnd(64, '0')), Buffer.from(signature))) throw mismatch();
}
