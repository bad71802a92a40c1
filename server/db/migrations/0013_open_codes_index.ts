import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Every lookup of a person's codes asks for the open ones, and a new code closes the earlier ones: a person has
  // at most one open code per purpose, however many they were sent. Indexing only those keeps issuing a code and
  // finding the newest one a single-row lookup; the index on every code made both read all of a person's codes
  // still kept (a day's worth).
  await db.schema.dropIndex('one_time_codes_subject').execute();
  await db.schema
    .createIndex('one_time_codes_open')
    .on('one_time_codes')
    .columns(['purpose', 'subject'])
    .where(sql.ref('consumed_at'), 'is', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('one_time_codes_open').execute();
  await db.schema.createIndex('one_time_codes_subject').on('one_time_codes').columns(['purpose', 'subject']).execute();
}
