import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The onboarding funnel reads the log by kind of entry over a period (the sign-ups of a month, the decisions
  // taken in it): without this index each answer would read the whole append-only log.
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'occurred_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_action').execute();
}
