import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { onboardingDocumentRepository, type OnboardingDocumentRepository } from '../repositories/onboardingDocumentRepository';
import { createDocumentService, type DocumentService } from '../services/documents';
import { removeUnreportedUploads } from '../services/housekeeping';
import { LOG_SIGNALS } from '../telemetry/logSignals';
import { embeddedIdentityCredentials } from './identity';
import { embeddedStorageCredentials } from './storage';

declare module 'fastify' {
  interface FastifyInstance {
    documents: DocumentService;
    onboardingDocuments: OnboardingDocumentRepository;
  }
}

/**
 * Applicants' documents: storage identities from the identity pool (developer-authenticated, one per
 * application) and the check of each uploaded document, against AWS or the embedded endpoints alike.
 */
/** The documents' service on the configured identity pool and bucket, with the server's credentials (`npm run admin`'s too). */
export function documentServiceOf(config: Config, secret: Buffer) {
  return createDocumentService({
    identity: {
      region: config.identity.region,
      endpoint: config.identity.identityPoolEndpoint,
      identityPoolId: config.identity.identityPoolId,
      developerProvider: config.identity.developerProvider,
      credentials: config.identity.embedded ? embeddedIdentityCredentials(secret) : undefined,
    },
    storage: {
      region: config.storage.region,
      endpoint: config.storage.endpoint,
      bucket: config.storage.bucket,
      maxDocumentBytes: config.storage.maxDocumentBytes,
      credentials: config.storage.embedded ? embeddedStorageCredentials(secret) : undefined,
    },
  });
}

export const documentsPlugin = fp(async (app: FastifyInstance, { config, secret }: { config: Config; secret: Buffer }) => {
  const documents = documentServiceOf(config, secret);
  app.decorate('documents', documents);
  app.decorate('onboardingDocuments', onboardingDocumentRepository(app.db));
  // Files never reported as documents go a day after they were stored (docs/storage.md, "Quotas"); hourly, so
  // none stays much beyond that day.
  let sweeping: Promise<unknown> | undefined;
  const sweeper = setInterval(() => {
    sweeping ??= removeUnreportedUploads({ storage: documents.storage, db: app.db, now: app.clock(), log: app.log })
      .then(
        () => app.metrics.housekeepingRun('unreported-uploads', false),
        (error: unknown) => {
          app.metrics.housekeepingRun('unreported-uploads', true);
          app.log.warn({ err: error, housekeepingTask: 'unreported-uploads' }, LOG_SIGNALS.uploadSweepFailed);
        },
      )
      .finally(() => {
        sweeping = undefined;
      });
  }, 3600_000);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await sweeping;
    documents.close();
  });
});
