// Every change to what the bucket holds, reported as it happens: who (the server, or which storage identity),
// when, the key, and for a write its size and hashes. The host app keeps the reports (its audit log); the
// endpoint only says what happened, after it happened.
import type { S3Request, StorageContext } from './context';

export interface StorageWrite {
  operation: 'PutObject' | 'CompleteMultipartUpload' | 'DeleteObject';
  bucket: string;
  key: string;
  /** `server`, or the storage identity whose temporary credentials signed the request. */
  by: string;
  at: Date;
  size?: number;
  /** Hex SHA-256 of the object's bytes, when the upload was hashed whole (a PutObject with a signed body hash). */
  sha256?: string;
  etag?: string;
}

export type StorageWriteAudit = (write: StorageWrite) => Promise<void>;

/**
 * Reports a change that was committed (to the request's key, or to `key` for one of a DeleteObjects' keys); a
 * report that fails is logged, the change stands.
 */
export async function auditWrite(context: StorageContext, s3: S3Request, write: Omit<StorageWrite, 'bucket' | 'key' | 'by' | 'at'> & { key?: string }): Promise<void> {
  if (!context.audit) return;
  const by = s3.principal.kind === 'server' ? 'server' : s3.principal.identityId;
  const key = write.key ?? s3.key;
  try {
    await context.audit({ ...write, bucket: s3.bucket, key, by, at: new Date(context.now()) });
  } catch (error) {
    context.log.error({ err: error, operation: write.operation, key }, 'a storage change could not be audited');
  }
}
