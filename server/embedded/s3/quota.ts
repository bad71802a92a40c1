// Quotas of storage areas (docs/storage.md, "Quotas"): under an area with one, an upload is refused before any
// byte of its body is read when its declared size is more than an object there may be, or more than the area
// has left. The bytes are reserved for the upload while it arrives and count until its object or part is recorded.
import type { IncomingHttpHeaders } from 'node:http';
import { requireAccess } from './access';
import type { Principal } from './auth';
import { STREAMING_PAYLOADS } from './chunked';
import { queryValue, type S3Request, type StorageContext } from './context';
import { errors, S3Error } from './errors';

export interface AreaQuota {
  /** The area's key prefix, ending in `/` (an applicant's `private/<identityId>/`). */
  area: string;
  /** The largest object the key may hold. */
  maxObjectBytes: number;
  /** All the area's objects, unfinished uploads' parts and uploads arriving together. */
  maxAreaBytes: number;
}

/** The quota for a write of `key` by `principal`; undefined where there is none. */
export type QuotaOf = (key: string, principal: Principal) => AreaQuota | undefined;

/** A reservation stops counting after this long: an upload still arriving after an hour is not a document's. */
export const RESERVATION_MS = 3600_000;

/** The body's size as the request declares it: x-amz-decoded-content-length for aws-chunked, else Content-Length. */
function declaredBytes(headers: IncomingHttpHeaders, payloadHash: string): number | undefined {
  const raw = headers[STREAMING_PAYLOADS.includes(payloadHash) ? 'x-amz-decoded-content-length' : 'content-length'];
  return typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

/** A refusal before the body is read: the connection closes after the answer instead of reading a body nobody wants. */
function refuse(s3: S3Request, error: S3Error): never {
  s3.reply.header('connection', 'close');
  throw error;
}

const areaFull = (maxAreaBytes: number) =>
  new S3Error('EntityTooLarge', 'Your proposed upload exceeds the storage allowed in this area.', 400, { MaxSizeAllowed: String(maxAreaBytes) });

/**
 * Runs a PutObject or UploadPart (`write`) within the quota of its key's area, if it has one: checked and
 * reserved first, released once the write has ended, whatever its outcome. `write` must not answer the request:
 * the caller answers once this returns, so no client ever holds an answer while its reservation still counts.
 */
export async function withinQuota<T>(context: StorageContext, s3: S3Request, write: () => Promise<T>): Promise<T> {
  const quota = context.quotaOf?.(s3.key, s3.principal);
  if (!quota || !context.quotas) return write();
  requireAccess(s3.principal, s3.key, 'write');
  const bytes = declaredBytes(s3.request.headers, s3.payloadHash);
  if (bytes === undefined) refuse(s3, errors.missingContentLength());
  if (bytes > quota.maxObjectBytes) refuse(s3, errors.entityTooLarge(quota.maxObjectBytes));
  const uploadId = queryValue(s3.query, 'uploadId');
  const partNumber = Number(queryValue(s3.query, 'partNumber'));
  const now = context.now();
  const outcome = await context.quotas.reserve({
    bucket: s3.bucket,
    area: quota.area,
    key: s3.key,
    bytes,
    maxObjectBytes: quota.maxObjectBytes,
    maxAreaBytes: quota.maxAreaBytes,
    part: uploadId !== undefined && Number.isInteger(partNumber) ? { uploadId, partNumber } : undefined,
    now: new Date(now),
    staleBefore: new Date(now - RESERVATION_MS),
  });
  if ('refused' in outcome) {
    context.log.info({ bucket: s3.bucket, area: quota.area, declaredBytes: bytes, usedBytes: outcome.usedBytes, refused: outcome.refused }, 'embedded s3 upload over quota');
    refuse(s3, outcome.refused === 'object' ? errors.entityTooLarge(quota.maxObjectBytes) : areaFull(quota.maxAreaBytes));
  }
  try {
    return await write();
  } finally {
    await context.quotas.release(outcome.reserved).catch((error: unknown) => context.log.warn({ err: error }, 'embedded s3 reservation not released'));
  }
}
