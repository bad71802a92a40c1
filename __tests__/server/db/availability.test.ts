// A PostgreSQL connection lost in the middle of a transaction, or one that cannot be made: DatabaseUnavailable,
// never the end of the process, while a query's own errors reach the code that expects them unchanged.
import { sql } from 'kysely';
import { Client } from 'pg';
import { createDatabase, DatabaseUnavailable, isDatabaseUnavailable } from '../../../server/db';
import { isLostConnection } from '../../../server/db/availability';
import { freePort } from '../helpers';

const postgresUrl = process.env.DATABASE_URL;
if (!postgresUrl) process.stderr.write('DATABASE_URL is not set: the PostgreSQL connection-loss tests are skipped.\n');

describe('what counts as a lost connection', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    ['57P01', 'terminating connection due to unexpected postmaster exit'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['53300', 'sorry, too many clients already'],
    ['ECONNRESET', 'read ECONNRESET'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
  ])('%s (%s)', (code, message) => {
    expect(isLostConnection(withCode(code, message))).toBe(true);
  });

  it.each(['Connection terminated unexpectedly', 'Connection terminated', 'Client has encountered a connection error and is not queryable'])('"%s"', (message) => {
    expect(isLostConnection(new Error(message))).toBe(true);
  });

  it.each([
    ['23505', 'duplicate key value violates unique constraint'],
    ['40001', 'could not serialize access due to concurrent update'],
    ['42P01', 'relation "x" does not exist'],
  ])("not a query's own error: %s", (code, message) => {
    expect(isLostConnection(withCode(code, message))).toBe(false);
  });

  it('finds a DatabaseUnavailable among causes', () => {
    const wrapped = new Error('the save failed', { cause: new DatabaseUnavailable(new Error('Connection terminated')) });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated'))).toBe(false);
  });
});

(postgresUrl ? describe : describe.skip)('PostgreSQL connections that go away (postgres)', () => {
  it('a server nobody listens on: DatabaseUnavailable, with the refusal as its cause', async () => {
    const handle = createDatabase({ dataDir: '/nonexistent', databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/test` });
    try {
      const failure = await sql`select 1`.execute(handle.db).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DatabaseUnavailable);
      expect(((failure as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
    } finally {
      await handle.destroy();
    }
  });

  it('a connection terminated between two queries of a transaction: the process lives, the transaction fails as unavailable, the next query works', async () => {
    const failures: Error[] = [];
    let told = () => undefined as void;
    const failed = new Promise<void>((resolve) => (told = resolve));
    const handle = createDatabase({
      dataDir: '/nonexistent',
      databaseUrl: postgresUrl,
      onConnectionError: (error) => {
        failures.push(error);
        told();
      },
    });
    const admin = new Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      const outcome = await handle.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          // The server ends this connection while no query of it runs: pg emits 'error' on the checked-out client.
          await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
          await failed;
          await sql`select 1`.execute(trx);
        })
        .catch((error: unknown) => error);
      expect(isDatabaseUnavailable(outcome)).toBe(true);
      expect(failures.map((error) => (error as { code?: string }).code)).toEqual(['57P01']);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await handle.destroy();
    }
  });

  it("a query's own error stays PostgreSQL's", async () => {
    const handle = createDatabase({ dataDir: '/nonexistent', databaseUrl: postgresUrl });
    try {
      const failure = await sql`select * from a_table_nobody_made`.execute(handle.db).catch((error: unknown) => error);
      expect(failure).not.toBeInstanceOf(DatabaseUnavailable);
      expect((failure as { code?: string }).code).toBe('42P01');
    } finally {
      await handle.destroy();
    }
  });
});
