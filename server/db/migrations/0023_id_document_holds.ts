import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // An ID document is reserved by the first application whose identity is verified: the key makes two at once impossible.
  await db.schema
    .createTable('id_document_holds')
    .addColumn('id_document', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('application_id', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('held_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // Applications verified before documents were held hold theirs: of each document the approved customer, else the
  // signed application, else the one in progress, the earliest first.
  const rank = ['approved', 'pending-review', 'in-progress'];
  const verified = (
    (await db
      .selectFrom('onboarding_applications')
      .select(['id', 'id_document', 'status', 'answers', 'updated_at'])
      .where('status', 'in', rank)
      .orderBy('updated_at')
      .execute()) as { id: string; id_document: string; status: string; answers: string; updated_at: string }[]
  ).sort((a, b) => rank.indexOf(a.status) - rank.indexOf(b.status));
  const held = new Set<string>();
  for (const row of verified) {
    const check = (JSON.parse(row.answers) as { identityCheck?: { status?: string; decidedAt?: string } }).identityCheck;
    if (check?.status !== 'approved' || held.has(row.id_document)) continue;
    held.add(row.id_document);
    await db.insertInto('id_document_holds').values({ id_document: row.id_document, application_id: row.id, held_at: check.decidedAt ?? row.updated_at }).execute();
  }
  // The password chosen at /divilo-password, sealed (AES-256-GCM, a server key) until the sign-in user is made.
  await db.schema
    .createTable('pending_passwords')
    .addColumn('application_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('sealed', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // Housekeeping looks for applications left untouched for a while, by status and last change.
  await db.schema.createIndex('onboarding_applications_inactive').on('onboarding_applications').columns(['status', 'updated_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('onboarding_applications_inactive').execute();
  await db.schema.dropTable('pending_passwords').execute();
  await db.schema.dropTable('id_document_holds').execute();
}
