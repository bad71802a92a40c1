import { Migrator, sql, type Kysely, type MigrationProvider } from 'kysely';
import { isPostgres } from './dialect';
import { migrations } from './migrations';

// The migrations are compiled into the server (no folder scanning), so the order is the one in migrations/index.ts.
const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The registered migration names, in the order they run. */
export const migrationNames = (): string[] => Object.keys(migrations);

/**
 * Brings the schema up to date and returns the names of the migrations it applied (none when it already
 * was). A failed migration is rolled back and throws, naming it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs against any database shape
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: another schema's
  // kysely_migration (a test worker's, another app's) would otherwise be taken for ours.
  const migrationTableSchema = isPostgres(db) ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const { error, results = [] } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? '(setup)'} failed: ${reason}`);
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
