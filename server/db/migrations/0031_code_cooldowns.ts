import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // When a person may next be sent a code for a purpose. The row is the one thing simultaneous asks for a code
  // contend on: each send moves it in one conditional statement, so of two asks at the same moment (a first
  // code included, when no challenge exists yet to contend on) only one sends.
  await db.schema
    .createTable('code_cooldowns')
    .addColumn('purpose', 'varchar(32)', (col) => col.notNull())
    .addColumn('subject', 'varchar(128)', (col) => col.notNull())
    .addColumn('ends_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('code_cooldowns_pk', ['purpose', 'subject'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('code_cooldowns').execute();
}
