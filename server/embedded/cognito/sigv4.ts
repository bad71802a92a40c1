// Checks the AWS Signature Version 4 of an admin call by signing the same request again with the shared secret.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { headerSignature, headerValue, parseAmzDate, sameSecret, splitRawUrl, type AwsCredentials } from '../sigv4';
import { AwsError } from './errors';

export type { AwsCredentials };

interface ReceivedRequest {
  method: string;
  /** The request target exactly as received (path and query, still percent-encoded). */
  rawUrl: string;
  headers: IncomingHttpHeaders;
  body: Buffer | string;
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request, ?SignedHeaders=([a-z0-9;\-_.]+), ?Signature=([0-9a-f]{64})$/;

const missingToken = () => new AwsError('MissingAuthenticationTokenException', 'Missing Authentication Token');
const incomplete = (message: string) => new AwsError('IncompleteSignatureException', message);
const unrecognized = () => new AwsError('UnrecognizedClientException', 'The security token included in the request is invalid.');
const mismatch = () =>
  new AwsError(
    'InvalidSignatureException',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  );

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
  const signingTime = parseAmzDate(amzDate);
  if (signingTime === undefined) throw incomplete('Authorization header requires existence of either a \'X-Amz-Date\' or a \'Date\' header.');
  if (!amzDate!.startsWith(scopeDate)) throw mismatch();

  // The key id is not secret, but comparing it in constant time costs nothing.
  if (!sameSecret(options.credentials.accessKeyId, accessKeyId)) throw unrecognized();
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

  let target: ReturnType<typeof splitRawUrl>;
  try {
    target = splitRawUrl(request.rawUrl);
  } catch {
    throw mismatch();
  }
  const expected = await headerSignature(
    { method: request.method, ...target, headers, body: request.body },
    { credentials: options.credentials, region, service, signingDate: new Date(signingTime), uriEscapePath: true },
  );
  if (!sameSecret(expected.padEnd(64, '0'), signature)) throw mismatch();
}
