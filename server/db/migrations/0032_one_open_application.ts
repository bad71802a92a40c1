import { sql, type Kysely } from 'kysely';

/** The statuses of an application its applicant comes back to: confirming a sign-up resumes it. */
const OPEN = ['in-progress', 'not-allowed'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Two sign-ups of one applicant (ID document and e-mail) confirmed at the same moment could each create an
  // application. Of such twins, the one a sign-up resumes stays (the newest refused one, else the newest in
  // progress); the others expire, as they would have after 30 days untouched, and housekeeping removes them.
  const open: { id: string; id_document: string; email: string; status: string; version: number }[] = await db
    .selectFrom('onboarding_applications')
    .select(['id', 'id_document', 'email', 'status', 'version'])
    .where(sql.ref('status'), 'in', OPEN)
    .orderBy('created_at', 'desc')
    .execute();
  const resumed = new Map<string, string>();
  for (const status of ['not-allowed', 'in-progress']) {
    for (const row of open.filter((application) => application.status === status)) {
      const applicant = JSON.stringify([row.id_document, row.email]);
      if (!resumed.has(applicant)) resumed.set(applicant, row.id);
    }
  }
  const kept = new Set(resumed.values());
  for (const twin of open.filter((application) => !kept.has(application.id))) {
    await db.updateTable('onboarding_applications').set({ status: 'expired', version: Number(twin.version) + 1 }).where('id', '=', twin.id).execute();
  }
  // At most one open application per applicant: a second one at the same moment is refused by the database.
  await db.schema
    .createIndex('onboarding_applications_one_open')
    .on('onboarding_applications')
    .columns(['id_document', 'email'])
    .unique()
    .where(sql.ref('status'), 'in', OPEN)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('onboarding_applications_one_open').execute();
}
