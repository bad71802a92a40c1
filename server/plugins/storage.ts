import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { lookupTemporaryCredentials } from '../embedded/cognito';
import { embeddedS3 } from '../embedded/s3';
import { deriveKey } from '../services/serverSecret';

/**
 * The embedded S3-compatible endpoint at /s3, used when no bucket is configured. Browsers sign with the
 * temporary credentials the embedded identity pool mints; the server signs with its own.
 */
export const storagePlugin = fp(async (app: FastifyInstance, { config, secret }: { config: Config; secret: Buffer }) => {
  const key = deriveKey(secret, 's3-server');
  await app.register(embeddedS3, {
    prefix: '/s3',
    db: app.db,
    buckets: [config.storage.bucket],
    dataDir: config.dataDir,
    region: config.storage.region,
    serverCredentials: { accessKeyId: `AKIA${key.subarray(0, 8).toString('hex').toUpperCase()}`, secretAccessKey: key.toString('base64') },
    resolveTemporaryCredentials: (accessKeyId, now) => lookupTemporaryCredentials(app.db, accessKeyId, now),
    // The server's CORS plugin answers for every route, these included.
    corsOrigins: false,
  });
});
