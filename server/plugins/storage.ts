import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { lookupTemporaryCredentials } from '../embedded/cognito';
import { embeddedS3 } from '../embedded/s3';
import { deriveAccessKey } from '../services/serverSecret';

/** The server's credentials for the embedded storage endpoint (may do everything); AWS uses the SDK's own chain. */
export const embeddedStorageCredentials = (secret: Buffer) => deriveAccessKey(secret, 's3-server');

/**
 * The embedded S3-compatible endpoint at /s3, used when no bucket is configured. Browsers sign with the
 * temporary credentials the embedded identity pool mints; the server signs with its own.
 */
/** The audit log's subject for a key: its area, the first two segments of the key (a subject holds 128 characters). */
export const storageAreaOf = (key: string) => `storage:${key.split('/').slice(0, 2).join('/')}`.slice(0, 128);

export const storagePlugin = fp(async (app: FastifyInstance, { config, secret }: { config: Config; secret: Buffer }) => {
  await app.register(embeddedS3, {
    prefix: '/s3',
    db: app.db,
    buckets: [config.storage.bucket],
    dataDir: config.dataDir,
    region: config.storage.region,
    serverCredentials: embeddedStorageCredentials(secret),
    resolveTemporaryCredentials: (accessKeyId) => lookupTemporaryCredentials(app.db, accessKeyId),
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
