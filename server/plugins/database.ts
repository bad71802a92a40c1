import { applicationRepository, type ApplicationRepository } from '../repositories/applicationRepository';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { createDatabase, migrateToLatest, type Database, type DatabaseHandle } from '../db';
import { auditLogRepository, type AuditLogRepository } from '../repositories/auditLogRepository';
import { loginSessionRepository, type LoginSessionRepository } from '../repositories/loginSessionRepository';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    auditLog: AuditLogRepository;
    loginSessions: LoginSessionRepository;
    applications: ApplicationRepository;
  }
}

interface DatabasePluginOptions {
  dataDir: string;
  databaseUrl?: string;
  /** An open database (tests); it stays open when the app closes. */
  database?: DatabaseHandle;
}

/** The database (migrated before the server answers) and the repositories built on it. */
export const databasePlugin = fp(async (app: FastifyInstance, options: DatabasePluginOptions) => {
  const handle =
    options.database ??
    createDatabase({ ...options, onConnectionError: (error) => app.log.warn({ reason: error.message }, 'a database connection failed') });
  const applied = await migrateToLatest(handle.db);
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
  app.decorate('db', handle.db);
  app.decorate('auditLog', auditLogRepository(handle.db));
  app.decorate('loginSessions', loginSessionRepository(handle.db));
  app.decorate('applications', applicationRepository(handle.db));
  // A database handed in by the caller (tests) is the caller's to close.
  if (!options.database) app.addHook('onClose', () => handle.destroy());
});
