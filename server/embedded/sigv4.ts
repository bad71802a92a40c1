// AWS Signature Version 4, the parts both embedded endpoints check the same way: a signature is verified by
// signing the same request again with @smithy/signature-v4 (what the SDKs sign with) and comparing in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** `20261122T101500Z` → epoch milliseconds; undefined when absent or malformed. */
export function parseAmzDate(value: string | undefined): number | undefined {
  const m = value === undefined ? null : AMZ_DATE.exec(value);
  if (!m) return undefined;
  const time = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(time) ? undefined : time;
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** AWS decodes the query before canonicalising it; `+` is a literal plus, not a space. Throws on bad escapes. */
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

/** The raw request target split into its path (still percent-encoded) and its decoded query. Throws on bad escapes. */
export function splitRawUrl(rawUrl: string): { path: string; query: Record<string, string | string[]> } {
  const at = rawUrl.indexOf('?');
  return at < 0 ? { path: rawUrl, query: {} } : { path: rawUrl.slice(0, at), query: parseQuery(rawUrl.slice(at + 1)) };
}

/** Constant-time equality of two secrets; their lengths are not secret (key ids, hex signatures). */
export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

interface SigningInput {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** The headers the client signed, by lower-case name. */
  headers: Record<string, string>;
  body?: Buffer | string;
}

interface SigningSettings {
  credentials: AwsCredentials & { sessionToken?: string };
  region: string;
  service: string;
  signingDate: Date;
  /** S3 signs the path as sent (no double encoding); the JSON services escape it again. */
  uriEscapePath: boolean;
}

const signerFor = (settings: SigningSettings) =>
  new SignatureV4({
    credentials: settings.credentials,
    region: settings.region,
    service: settings.service,
    sha256: Sha256,
    uriEscapePath: settings.uriEscapePath,
    applyChecksum: false,
  });

/** The signature the Authorization header should carry: every header the client listed is signed again. */
export async function headerSignature(request: SigningInput, settings: SigningSettings): Promise<string> {
  const signed = await signerFor(settings).sign(
    { method: request.method, protocol: 'http:', hostname: request.headers.host, path: request.path, query: request.query, headers: request.headers, body: request.body },
    { signingDate: settings.signingDate, signableHeaders: new Set(Object.keys(request.headers)) },
  );
  return /Signature=([0-9a-f]{64})$/.exec(String(signed.headers.authorization))?.[1] ?? '';
}

/**
 * The X-Amz-Signature a presigned URL should carry. presign() writes the X-Amz-* parameters again from the
 * same values; the payload is UNSIGNED-PAYLOAD, and the signed headers stay headers (none is hoisted).
 */
export async function presignedSignature(request: SigningInput, settings: SigningSettings & { expiresIn: number }): Promise<string> {
  const signedHeaders = Object.keys(request.headers);
  const presigned = await signerFor(settings).presign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: request.headers.host,
      path: request.path,
      query: { ...request.query },
      headers: { ...request.headers, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    },
    {
      signingDate: settings.signingDate,
      expiresIn: settings.expiresIn,
      signableHeaders: new Set(signedHeaders),
      unsignableHeaders: new Set(['x-amz-content-sha256']),
      unhoistableHeaders: new Set([...signedHeaders, 'x-amz-content-sha256']),
    },
  );
  return String(presigned.query?.['X-Amz-Signature'] ?? '');
}
