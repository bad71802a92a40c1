import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // What a review decision still has to do outside the database (the user pool's status, the applicant's e-mail),
  // written in the decision's own transaction. A run claims an effect until `claimed_until`, carries it out and
  // marks it done; a failed one is released with its error, and the next run (or housekeeping) tries again.
  await db.schema
    .createTable('review_effects')
    .addColumn('application_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('effect', 'varchar(32)', (col) => col.notNull())
    .addColumn('decision', 'varchar(16)', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('claimed_until', 'varchar(32)')
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('last_error', 'varchar(200)')
    .addColumn('done_at', 'varchar(32)')
    .addPrimaryKeyConstraint('review_effects_pk', ['application_id', 'effect'])
    .execute();
  // Housekeeping looks for the effects not done yet.
  await db.schema.createIndex('review_effects_done_at').on('review_effects').column('done_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('review_effects').execute();
}
