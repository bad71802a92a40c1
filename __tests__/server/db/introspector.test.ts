import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Client } from 'pg';
import { openTestDatabase, type TestDatabase } from '../helpers';

const postgresUrl = process.env.DATABASE_URL;

(postgresUrl ? describe : describe.skip)('the PostgreSQL introspection the migrator reads (postgres)', () => {
  let database: TestDatabase;
  let other: Client;
  /** A schema of another process, with a table of the migrator's name in it. */
  const otherSchema = `test_other_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    other = new Client({ connectionString: postgresUrl });
    await other.connect();
    await other.query(`CREATE SCHEMA "${otherSchema}"; CREATE TABLE "${otherSchema}".kysely_migration (name varchar(255) primary key); CREATE TABLE "${otherSchema}".stray (id serial primary key)`);
  });
  afterAll(async () => {
    await other.query(`DROP SCHEMA IF EXISTS "${otherSchema}" CASCADE`);
    await other.end();
    await database.destroy();
  });

  it("lists the tables of the connection's schema with their columns, and none of another schema", async () => {
    const ownSchema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0].schema;
    const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([ownSchema]));
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'audit_log']));
    expect(tables.map((table) => table.name)).not.toContain('stray');
    const id = tables.find((table) => table.name === 'audit_log')?.columns.find((column) => column.name === 'id');
    expect(id).toMatchObject({ dataType: 'int4', isAutoIncrementing: true, isNullable: false, hasDefaultValue: true });
    const withoutKysely = await database.db.introspection.getTables();
    expect(withoutKysely.map((table) => table.name)).not.toContain('kysely_migration');
  });

  it('is not failed by a schema another process drops while it reads', async () => {
    const doomed = `test_doomed_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await other.query(`CREATE SCHEMA "${doomed}"; CREATE TABLE "${doomed}".files (id serial primary key)`);
    // A repeatable-read snapshot taken before the drop still shows the schema's rows in the catalogs, as a read
    // already under way would see them; any lookup of that schema by name then fails.
    const tables = await database.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await other.query(`DROP SCHEMA "${doomed}" CASCADE`);
      return trx.introspection.getTables({ withInternalKyselyTables: true });
    });
    expect(tables.map((table) => table.name)).toContain('kysely_migration');
  });
});
