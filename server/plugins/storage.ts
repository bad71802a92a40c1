import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { lookupTemporaryCredentials } from '../embedded/cognito';
import { APPLICATION_STORAGE_MAX_BYTES, documentMaxBytes, isDocumentKind, LARGEST_DOCUMENT_BYTES } from '../../src/validation/documentLimits';
import { embeddedS3, type QuotaOf } from '../embedded/s3';
import { deriveAccessKey } from '../services/serverSecret';

/** The server's credentials for the embedded storage endpoint (may do everything); AWS uses the SDK's own chain. */
export const embeddedStorageCredentials = (secret: Buffer) => deriveAccessKey(secret, 's3-server');

/**
 * An applicant's writes (`private/<identityId>/<kind>/<name>`, as the upload screens name them): each file at most
 * its kind's size (the largest of any kind under another folder), the whole area at most the application's total.
 * The server's own writes have no quota: it stores only what it decided to.
 */
export function applicantQuota(maxDocumentBytes: number): QuotaOf {
  return (key, principal) => {
    if (principal.kind !== 'identity') return undefined;
    const area = `private/${principal.identityId}/`;
    if (!key.startsWith(area)) return undefined;
    const folder = key.slice(area.length).split('/')[0];
    const maxObjectBytes = isDocumentKind(folder) ? documentMaxBytes(folder, maxDocumentBytes) : Math.min(LARGEST_DOCUMENT_BYTES, maxDocumentBytes);
    return { area, maxObjectBytes, maxAreaBytes: APPLICATION_STORAGE_MAX_BYTES };
  };
}

/**
 * The embedded S3-compatible endpoint at /s3, used when no bucket is configured. Browsers sign with the
 * temporary credentials the embedded identity pool mints; the server signs with its own.
 */
/** The audit log's subject for a key: its area, the first two segments of the key (a subject holds 128 characters). */
export const storageAreaOf = (key: string) => `storage:${key.split('/').slice(0, 2).join('/')}`.slice(0, 128);

export const storagePlugin = fp(async (app: FastifyInstance, { config, secret, now }: { config: Config; secret: Buffer; now?: () => number }) => {
  await app.register(embeddedS3, {
    prefix: '/s3',
    now,
    db: app.db,
    buckets: [config.storage.bucket],
    dataDir: config.dataDir,
    region: config.storage.region,
    serverCredentials: embeddedStorageCredentials(secret),
    resolveTemporaryCredentials: (accessKeyId) => lookupTemporaryCredentials(app.db, accessKeyId),
    quotaOf: applicantQuota(config.storage.maxDocumentBytes),
    // The server's CORS plugin answers for every route, these included.
    corsOrigins: false,
    // Every write and delete in the audit log, by whoever made it: an applicant's own credentials included.
    // Filed under the area the key is in (`storage:private/<identityId>`, `storage:evidence/<applicationId>`).
    audit: async ({ operation, bucket, key, by, at, size, sha256, etag }) =>
      app.auditLog.append(
        { actor: by === 'server' ? 'server' : `storage-identity:${by}`, action: `storage.${operation}`, subject: storageAreaOf(key), details: { bucket, key, size, sha256, etag } },
        at,
      ),
  });
});
