import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { withStatementCache } from '../../../server/db';
import { prepareQuery } from '../../../server/db/prepared';
import { describeEachDialect, openTestDatabase } from '../helpers';

type Tables = {
  notes: { id: string; owner: string; body: string; rank: number };
};

describeEachDialect('a query prepared once', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Kysely<Tables>;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    db = database.db.withTables<Tables>() as unknown as Kysely<Tables>;
    await db.schema.createTable('notes').addColumn('id', 'varchar(8)', (col) => col.primaryKey()).addColumn('owner', 'varchar(8)').addColumn('body', 'text').addColumn('rank', 'integer').execute();
  });

  afterAll(async () => {
    await database.destroy();
  });

  it('runs with each call’s values, in place, on the database or a transaction of it', async () => {
    const insert = prepareQuery((id: string, owner: string, body: string) => db.insertInto('notes').values({ id, owner, body, rank: 7 }));
    // The same argument twice, and a constant between the arguments.
    const byOwner = prepareQuery((owner: string, minimum: number) =>
      db.selectFrom('notes').select(['id', 'body']).where('owner', '=', owner).where('rank', '>=', 5).where((eb) => eb.or([eb('rank', '>=', minimum), eb('owner', '=', owner)])).orderBy('id'),
    );
    await insert(db, 'n1', 'ana', 'first');
    await insert(db, 'n2', 'ana', 'second');
    await db.transaction().execute(async (trx) => {
      await insert(trx, 'n3', 'bob', 'third');
    });
    await expect(db.transaction().execute(async (trx) => {
      await insert(trx, 'n4', 'bob', 'rolled back');
      throw new Error('undo');
    })).rejects.toThrow('undo');
    expect((await byOwner(db, 'ana', 100)).rows).toEqual([{ id: 'n1', body: 'first' }, { id: 'n2', body: 'second' }]);
    expect((await byOwner(db, 'bob', 100)).rows).toEqual([{ id: 'n3', body: 'third' }]);
    expect((await byOwner(db, 'eve', 0)).rows).toEqual([]);
  });

  it('refuses a query shaped by an argument rather than using it as a value', async () => {
    const shaped = prepareQuery((withBody: boolean) => db.selectFrom('notes').select(withBody ? ['id', 'body'] : ['id']));
    await expect(shaped(db, false)).rejects.toThrow('argument 0 is not a value of the query');
  });
});

describe('the SQLite statement cache', () => {
  let dir: string;
  let sqlite: SQLite.Database;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'divilo-statements-'));
    sqlite = new SQLite(path.join(dir, 'cache.sqlite'));
    sqlite.exec('create table t (n integer)');
  });

  afterEach(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prepares a SQL text once, keeps the most recently used, and binds each run’s values', () => {
    const prepared: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      prepared.push(text);
      return prepare(text);
    }) as typeof sqlite.prepare;
    const cached = withStatementCache(sqlite, 2);
    for (const n of [1, 2, 3]) cached.prepare('insert into t (n) values (?)').run([n]);
    expect(cached.prepare('select n from t where n >= ? order by n').all([2])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(cached.prepare('select n from t where n >= ? order by n').all([3])).toEqual([{ n: 3 }]);
    expect(prepared).toEqual(['insert into t (n) values (?)', 'select n from t where n >= ? order by n']);
    cached.prepare('select count(*) as c from t').all([]);
    // Three texts for two places: the least recently used (the insert) is prepared again.
    cached.prepare('insert into t (n) values (?)').run([4]);
    expect(prepared).toHaveLength(4);
    expect(prepared[3]).toBe('insert into t (n) values (?)');
    expect(cached.prepare('select n from t where n >= ? order by n').reader).toBe(true);
  });

  it('gives a streamed query a statement of its own, so the same text can run while it is unfinished', () => {
    const cached = withStatementCache(sqlite);
    for (const n of [1, 2, 3]) cached.prepare('insert into t (n) values (?)').run([n]);
    const text = 'select n from t order by n';
    const rows = cached.prepare(text).iterate([]);
    expect(rows.next().value).toEqual({ n: 1 });
    expect(cached.prepare(text).all([])).toHaveLength(3);
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
  });
});
