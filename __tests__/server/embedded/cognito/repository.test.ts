import { sql, type Kysely } from 'kysely';
import { createIdentityRepository, type IdentityRepository, type PoolUser } from '../../../../server/embedded/cognito/repository';
import { deriveKey } from '../../../../server/embedded/cognito/sealing';
import type { IdentityTables } from '../../../../server/embedded/cognito/tables';
import { createTokenIssuer } from '../../../../server/embedded/cognito/tokens';
import { describeEachDialect, dialects, openTestDatabase } from '../../helpers';

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

/** The pool's view of the application's database (or of a transaction of it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any application Database type
const identityTables = (db: Kysely<any>) => db.withTables<IdentityTables>() as unknown as Kysely<IdentityTables>;

function poolUser(username: string, sub: string): PoolUser {
  return {
    sub,
    username,
    attributes: { phone_number: '+34600000000' },
    salt: 'ab'.repeat(16),
    verifier: 'cd'.repeat(384),
    status: 'CONFIRMED',
    enabled: true,
    createdAt: NOW,
    updatedAt: NOW,
    passwordSetAt: NOW,
  };
}

describeEachDialect('the embedded pool repository', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let repository: IdentityRepository;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    repository = createIdentityRepository(database.db.withTables<IdentityTables>() as unknown as Kysely<IdentityTables>);
  });

  afterAll(async () => {
    await database.destroy();
  });

  it('stores users with a unique username and reads them back with their lock state', async () => {
    expect(await repository.users.insert(poolUser('R1', '00000000-0000-4000-8000-000000000001'))).toBe(true);
    expect(await repository.users.insert(poolUser('R1', '00000000-0000-4000-8000-000000000002'))).toBe(false);
    expect(await repository.users.findByUsername('R1')).toEqual(poolUser('R1', '00000000-0000-4000-8000-000000000001'));
    expect(await repository.users.findForSignIn('R1', NOW)).toMatchObject({ locked: false, hasFailures: false });
    expect(await repository.users.findForSignIn('r1', NOW)).toBeUndefined();
  });

  it('locks after the maximum of consecutive failures, without extending the lock while it lasts', async () => {
    await repository.users.insert(poolUser('R2', '00000000-0000-4000-8000-000000000003'));
    for (let i = 1; i < 5; i += 1) expect(await repository.failures.record('R2', NOW + i, 5, 60)).toEqual({ locked: false });
    expect(await repository.failures.record('R2', NOW + 5, 5, 60)).toEqual({ locked: true });
    expect(await repository.users.findForSignIn('R2', NOW + 10)).toMatchObject({ locked: true, hasFailures: true });
    // Attempts during the lock neither count nor push the end further.
    for (let i = 0; i < 10; i += 1) expect(await repository.failures.record('R2', NOW + 1000, 5, 60)).toEqual({ locked: true });
    expect(await repository.users.findForSignIn('R2', NOW + 60_006)).toMatchObject({ locked: false });
    expect(await repository.failures.record('R2', NOW + 60_006, 5, 60)).toEqual({ locked: false });
    await repository.failures.clear('R2');
    expect(await repository.users.findForSignIn('R2', NOW + 60_007)).toMatchObject({ locked: false, hasFailures: false });
  });

  it("tells a right answer's transaction whether the name is locked", async () => {
    for (let i = 1; i < 5; i += 1) await repository.failures.record('R7', NOW + i, 5, 60);
    expect(await database.db.transaction().execute((trx) => repository.failures.isLocked('R7', NOW + 5, identityTables(trx)))).toBe(false);
    await repository.failures.record('R7', NOW + 5, 5, 60);
    expect(await database.db.transaction().execute((trx) => repository.failures.isLocked('R7', NOW + 6, identityTables(trx)))).toBe(true);
    expect(await repository.failures.isLocked('R7', NOW + 60_006)).toBe(false);
    expect(await repository.failures.isLocked('never-failed', NOW)).toBe(false);
  });

  it('locks at the first failure when one is the maximum, and again after the lock', async () => {
    await repository.users.insert(poolUser('R3', '00000000-0000-4000-8000-000000000004'));
    expect(await repository.failures.record('R3', NOW, 1, 60)).toEqual({ locked: true });
    expect(await repository.users.findForSignIn('R3', NOW + 59_999)).toMatchObject({ locked: true });
    expect(await repository.failures.record('R3', NOW + 60_000, 1, 60)).toEqual({ locked: true });
    expect(await repository.users.findForSignIn('R3', NOW + 119_999)).toMatchObject({ locked: true });
    expect(await repository.users.findForSignIn('R3', NOW + 120_000)).toMatchObject({ locked: false });
  });

  it('answers an auth session once, with what the answer records written in the same transaction', async () => {
    const id = 'a'.repeat(64);
    expect(await repository.sessions.answer(id, NOW + 180_000)).toBe(true);
    expect(await repository.sessions.answer(id, NOW + 180_000)).toBe(false);

    const recorded: string[] = [];
    const record = async (executor: Kysely<IdentityTables>) => {
      await repository.failures.record('R9', NOW, 5, 60, executor);
      recorded.push('failure');
    };
    expect(await repository.sessions.answer('b'.repeat(64), NOW + 180_000, record)).toBe(true);
    // Answered already: the record is not written again.
    expect(await repository.sessions.answer('b'.repeat(64), NOW + 180_000, record)).toBe(false);
    expect(recorded).toEqual(['failure']);
    const failures = await database.db.withTables<IdentityTables>().selectFrom('cognito_sign_in_failures').select('failures').where('username', '=', 'R9').execute();
    expect(failures).toEqual([{ failures: 1 }]);

    // A record that fails leaves the session unanswered.
    await expect(repository.sessions.answer('c'.repeat(64), NOW + 180_000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await repository.sessions.answer('c'.repeat(64), NOW + 180_000)).toBe(true);

    // Kept until the session expires, then dropped.
    const answered = () => database.db.withTables<IdentityTables>().selectFrom('cognito_answered_auth_sessions').select('id').where('id', '=', id).execute();
    await repository.deleteExpired(NOW + 179_999);
    expect(await answered()).toHaveLength(1);
    await repository.deleteExpired(NOW + 180_000);
    expect(await answered()).toHaveLength(0);
  });

  it('revokes refresh tokens, one or all of a user, and with them their sign-ins', async () => {
    const token = (hash: string, originJti: string, userSub = 'user-a') => ({
      tokenHash: hash, userSub, clientId: 'c', originJti, authTime: 1, expiresAt: NOW + 3600_000, revoked: false,
    });
    await repository.refreshTokens.insert(token('h1', '10000000-0000-4000-8000-000000000001'), NOW);
    await repository.refreshTokens.insert(token('h2', '10000000-0000-4000-8000-000000000002'), NOW);
    await repository.refreshTokens.insert(token('h3', '10000000-0000-4000-8000-000000000003', 'user-b'), NOW);
    expect(await repository.refreshTokens.isOriginActive('10000000-0000-4000-8000-000000000001', NOW)).toBe(true);
    expect(await repository.refreshTokens.isOriginActive('10000000-0000-4000-8000-000000000001', NOW + 3600_000)).toBe(false);
    await repository.refreshTokens.revoke('h1');
    expect(await repository.refreshTokens.find('h1')).toMatchObject({ revoked: true });
    expect(await repository.refreshTokens.isOriginActive('10000000-0000-4000-8000-000000000002', NOW)).toBe(true);
    await repository.refreshTokens.revokeAllOf('user-a');
    expect(await repository.refreshTokens.isOriginActive('10000000-0000-4000-8000-000000000002', NOW)).toBe(false);
    expect(await repository.refreshTokens.isOriginActive('10000000-0000-4000-8000-000000000003', NOW)).toBe(true);
  });

  it('gives a login one stable identity id', async () => {
    const first = await repository.identities.findOrCreate('local:pool', 'issuer/local_X1', 'sub-1', 'local:id-1', NOW);
    const second = await repository.identities.findOrCreate('local:pool', 'issuer/local_X1', 'sub-1', 'local:id-2', NOW);
    const other = await repository.identities.findOrCreate('local:pool', 'issuer/local_X1', 'sub-2', 'local:id-3', NOW);
    expect([first, second, other]).toEqual(['local:id-1', 'local:id-1', 'local:id-3']);
    expect(await repository.identities.find('local:id-1')).toEqual({ identityPoolId: 'local:pool', provider: 'issuer/local_X1', sub: 'sub-1' });
  });

  it('keeps the signing keys in the database, the private part sealed, and rotates them', async () => {
    const options = {
      issuer: 'http://localhost/cognito/local_X1',
      clientId: 'c',
      lifetimes: { idTokenSeconds: 600, accessTokenSeconds: 600, refreshTokenSeconds: 3600 },
      keyRotationSeconds: 3600,
      keyPublishSeconds: 0,
      keyEncryptionKey: deriveKey('repository-test-secret-0000000000000000', 'signing-keys'),
      store: repository.signingKeys,
    };
    let now = NOW;
    const tokens = createTokenIssuer({ ...options, now: () => now });
    // Two server processes starting at once on an empty table make one key between them.
    await Promise.all([tokens.maintainKeys(), createTokenIssuer({ ...options, now: () => now }).maintainKeys()]);
    await createTokenIssuer({ ...options, now: () => now }).maintainKeys();
    const rows = await database.db.withTables<IdentityTables>().selectFrom('cognito_signing_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].sealed_private_key).not.toMatch(/PRIVATE KEY/);
    expect(rows[0].public_jwk).not.toMatch(/"d"/);

    now += 3600_000;
    await tokens.maintainKeys();
    expect(tokens.jwks().keys.map((key) => key.kid)).toEqual(expect.arrayContaining([rows[0].kid]));
    expect(tokens.jwks().keys).toHaveLength(2);
    // A retired key is published as long as a token it signed can live: a day, for the identity pool's OpenID tokens.
    // (Meanwhile the second key is due and rotates too.)
    now += 86_399_000;
    await tokens.maintainKeys();
    expect(tokens.jwks().keys.map((key) => key.kid)).toContain(rows[0].kid);
    now += 2_000;
    await tokens.maintainKeys();
    expect(tokens.jwks().keys.map((key) => key.kid)).not.toContain(rows[0].kid);
    expect(tokens.jwks().keys).toHaveLength(2);
    expect(tokens.jwks().keys[0].kid).not.toBe(rows[0].kid);
  });

  it('keeps expired temporary credentials for a day, so late requests are told they expired, then drops them', async () => {
    const identityId = await repository.identities.findOrCreate('local:pool', 'issuer/local_X1', 'sub-c', 'local:id-c', NOW);
    const record = { accessKeyId: 'ASIAEXPIREDCREDS234', sealedSecret: 'sealed', sessionTokenHash: 'hash', identityId, expiresAt: NOW + 3600_000 };
    await repository.credentials.insert(record, NOW);
    await repository.deleteExpired(NOW + 3600_000 + 86_400_000 - 1);
    expect(await repository.credentials.find(record.accessKeyId)).toMatchObject({ identityId, expiresAt: NOW + 3600_000 });
    await repository.deleteExpired(NOW + 3600_000 + 86_400_000);
    expect(await repository.credentials.find(record.accessKeyId)).toBeUndefined();
  });

  it('cleans up what has expired, and the failure rows of unknown names idle for a day', async () => {
    await repository.failures.record('nobody-1', NOW, 5, 60);
    await repository.failures.record('R1', NOW, 5, 60);
    await repository.deleteExpired(NOW + 86_400_001);
    const names = (await database.db.withTables<IdentityTables>().selectFrom('cognito_sign_in_failures').select('username').execute()).map(
      (row) => row.username,
    );
    expect(names).toContain('R1');
    expect(names).not.toContain('nobody-1');
    expect(await repository.refreshTokens.find('h3')).toBeUndefined();
  });
});

// Transactions interleave only on PostgreSQL (SQLite runs one at a time on its one connection).
const postgres = dialects().find((entry) => entry.dialect === 'postgres')!;
(postgres.skip ? describe.skip : describe)('the embedded pool repository, two transactions at once (postgres)', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let repository: IdentityRepository;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    repository = createIdentityRepository(database.db.withTables<IdentityTables>() as unknown as Kysely<IdentityTables>);
  });
  afterAll(() => database.destroy());

  it("has a right answer's lock check wait for the failure being counted, and see the lock it makes", async () => {
    for (let i = 1; i < 5; i += 1) await repository.failures.record('P1', NOW + i, 5, 60);
    let answerPid = 0;
    let rightAnswer: Promise<boolean> | undefined;
    await database.db.transaction().execute(async (failure) => {
      // The fifth failure, counted and not yet committed, when the right answer reads the lock.
      await repository.failures.record('P1', NOW + 5, 5, 60, identityTables(failure));
      let answered = false;
      rightAnswer = database.db.transaction().execute(async (trx) => {
        answerPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0].pid;
        return repository.failures.isLocked('P1', NOW + 6, identityTables(trx)).finally(() => (answered = true));
      });
      // Until the answer's read is seen waiting for the failure's row (polled, never a timed wait), or has read
      // without waiting (then before the lock: the check below fails).
      while (!answered) {
        const waiting = answerPid !== 0 && (await sql`select 1 from pg_locks where pid = ${answerPid} and not granted`.execute(database.db)).rows.length > 0;
        if (waiting) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    // The failure committed, the answer's read went on: it read the row as committed, locked.
    expect(await rightAnswer).toBe(true);
  });
});
