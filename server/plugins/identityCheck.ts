import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { identityCheck, type IdentityCheck } from '../services/identityCheck';

declare module 'fastify' {
  interface FastifyInstance {
    identityCheck: IdentityCheck;
  }
}

/**
 * The identity check of the applicants' photos, with the verifier IDENTITY_PROVIDER names: it reads the
 * checked documents and records its result on the application, on the clock of the code rules.
 */
export const identityCheckPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  app.decorate(
    'identityCheck',
    identityCheck({ applications: app.applications, documents: app.onboardingDocuments, auditLog: app.auditLog, now: () => app.codes.now() }, config.identityCheck),
  );
});
