// An application abandoned for a month goes whole: an applicant signs up, confirms a phone, sets a password, uploads
// the three identity photos and starts the identity check (their evidence copies made), then leaves. 31 days later
// nothing in any table and no object in storage names them, while the funnel still counts what they did. Through the
// HTTP API and the embedded storage, on both databases.
import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { embeddedStorageCredentials } from '../../server/plugins/storage';
import { expireInactiveApplications, expireOldRows } from '../../server/services/housekeeping';
import { funnelOf } from '../../server/services/funnel';
import { loadServerSecret } from '../../server/services/serverSecret';
import { applicantCredentials, uploadDocument } from '../../src/documentStorage/uploadDocument';
import { describeEachDialect } from './helpers';
import { documentPhoto, realSelfie } from './images';
import { lastCode, startLoginServerOn } from './login/loginServer';
import { call, setPasswordOf, signUpAndConfirm } from './onboarding/signing';

jest.setTimeout(180_000);

const DAY = 86_400_000;
const PHONE = '+34622333444';

describeEachDialect('an abandoned application, erased', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { RATE_LIMIT_MAX: '5000', RATE_LIMIT_SENSITIVE_MAX: '1000' });
  });
  afterAll(() => server.close());

  const storage = () =>
    new S3Client({
      region: server.config.storage.region,
      endpoint: `${server.base}/s3`,
      forcePathStyle: true,
      credentials: embeddedStorageCredentials(loadServerSecret(server.config.dataDir, server.config.serverSecret)),
    });
  async function keysUnder(prefix: string): Promise<string[]> {
    const client = storage();
    try {
      return ((await client.send(new ListObjectsV2Command({ Bucket: server.config.storage.bucket, Prefix: prefix }))).Contents ?? []).map((object) => object.Key!);
    } finally {
      client.destroy();
    }
  }

  /** Every row of every table, as text by table: what a copy of the database would show of anyone. */
  async function everyRow(): Promise<Map<string, string>> {
    const tables =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(server.app.db)).rows.map((row) => row.name)
        : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(server.app.db)).rows.map((row) => row.name);
    const dumps = new Map<string, string>();
    for (const table of tables) {
      const { rows } = await sql`select * from ${sql.table(table)}`.execute(server.app.db);
      dumps.set(table, JSON.stringify(rows, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('latin1') : value)));
    }
    return dumps;
  }
  const tablesWith = (dumps: Map<string, string>, trace: string) => [...dumps].filter(([, text]) => text.includes(trace)).map(([table]) => table);

  /** An applicant who got as far as the identity check, with everything that leaves behind. */
  async function abandoned() {
    const dni = '00000093R';
    const email = `leaves-${randomUUID().slice(0, 8)}@example.com`;
    const confirmed = await signUpAndConfirm(server, email, dni);
    const id = (confirmed.body.application as { id: string }).id;
    let token = confirmed.body.token as string;
    const person = { firstName: 'Remedios', firstSurname: 'Olvido', secondSurname: 'Quintana', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };
    expect((await call(server, token, 'POST', 'personal-info', person)).status).toBe(200);
    expect((await call(server, token, 'POST', 'phone', { telephoneCountry: 'ES', telephoneNumber: PHONE })).status).toBe(200);
    expect((await call(server, token, 'POST', 'phone/verify', { code: await lastCode(server.app, PHONE) })).status).toBe(200);
    expect((await setPasswordOf(server, id)).status).toBe(200);
    token = await server.app.onboardingTokens.issue(id);

    const identity = (await call(server, token, 'POST', 'storage-identity')).body as { identityId: string; token: string };
    const credentials = applicantCredentials(identity, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
    const config = { region: server.config.storage.region, bucket: server.config.storage.bucket, endpoint: `${server.base}/s3` };
    const photos: Record<string, string> = {};
    for (const [kind, name, bytes, type] of [
      ['documentFront', 'front.png', await documentPhoto('png'), 'image/png'],
      ['documentBack', 'back.jpg', await documentPhoto('jpeg', { portrait: false, seed: 3 }), 'image/jpeg'],
      ['selfie', 'remedios-selfie.jpg', await realSelfie(), 'image/jpeg'],
    ] as const) {
      const { key } = await uploadDocument(new Blob([new Uint8Array(bytes)], { type }), { key: `${kind}/${name}`, level: 'private', credentials, identityId: identity.identityId, config });
      expect((await call(server, token, 'POST', 'documents', { kind, key })).status).toBe(200);
      photos[kind] = key;
    }
    expect((await call(server, token, 'POST', 'identity-check', photos)).status).toBe(200);
    return { id, dni, email, identityId: identity.identityId, name: person.firstSurname };
  }

  it('leaves no row and no object that names the applicant, and the funnel counts them as before', async () => {
    const from = new Date(Date.now() - DAY);
    const who = await abandoned();
    expect(await keysUnder(`private/${who.identityId}/`)).toHaveLength(3);
    expect(await keysUnder(`evidence/${who.id}/`)).toHaveLength(3);
    const traces = [who.id, who.email, who.dni, PHONE, who.identityId, who.name];
    const before = await everyRow();
    for (const trace of traces) expect(tablesWith(before, trace)).not.toEqual([]);
    const period = { from, to: new Date(Date.now() + DAY), path: 'all' as const };
    const counted = await funnelOf(server.app.db, period);

    const later = new Date(Date.now() + 31 * DAY);
    const expiry = { db: server.app.db, identity: server.app.identity, auditLog: server.app.auditLog, storage: server.app.documents };
    // Housekeeping's run then: the application, and whatever else has had its time (sent messages, codes).
    expect(await expireInactiveApplications(expiry, later)).toBe(1);
    await expireOldRows(server.app.db, later);

    expect(await keysUnder(`private/${who.identityId}/`)).toEqual([]);
    expect(await keysUnder(`evidence/${who.id}/`)).toEqual([]);
    const after = await everyRow();
    for (const trace of traces) expect({ trace, tables: tablesWith(after, trace) }).toEqual({ trace, tables: [] });
    expect(await funnelOf(server.app.db, period)).toEqual(counted);
    const erased = await server.app.db.selectFrom('audit_log').select(['subject', 'details']).where('action', '=', 'onboarding.application_erased').execute();
    expect(erased).toEqual([{ subject: expect.stringMatching(/^application:erased-/), details: JSON.stringify({ why: 'expired' }) }]);
  });
});
