import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Each staff member added, once: `staff add` takes the row before it shows a temporary password, so two adds of the
  // same member at the same moment cannot both show one (the second would have replaced the first's).
  await db.schema
    .createTable('staff_additions')
    .addColumn('username', 'varchar(320)', (col) => col.primaryKey())
    .addColumn('added_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // The members added before: their audit entries say so.
  await sql`insert into staff_additions (username, added_at)
    select substr(subject, 7), min(occurred_at) from audit_log where action = 'staff.added' and subject like 'staff:%' group by subject`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_additions').execute();
}
