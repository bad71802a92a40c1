// An application abandoned on "AWS" (moto, IAM enforced) goes whole: an applicant signs up, fills the wizard up to
// the identity check (the modelo 036 and three photos in the bucket, the photos' evidence copies made by the server),
// then leaves. The expiry, run 31 days later with the server's configuration and its role's credentials, removes the
// uploads and the evidence copies (a delete marker on top of each, the version under it left to the bucket's
// lifecycle), forgets the storage identity in the identity pool and the application's rows.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CognitoIdentityClient, LookupDeveloperIdentityCommand } from '@aws-sdk/client-cognito-identity';
import { ListObjectsV2Command, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { Client } from 'pg';
import { loadConfig } from '../../server/config';
import { createDatabase } from '../../server/db';
import { documentServiceOf } from '../../server/plugins/documents';
import { identityServiceOf } from '../../server/plugins/identity';
import { auditLogRepository } from '../../server/repositories/auditLogRepository';
import { expireInactiveApplications } from '../../server/services/housekeeping';
import { loadServerSecret } from '../../server/services/serverSecret';
import { freePort, postgresUrlInSchema } from '../server/helpers';
import { documentPhoto, realSelfie } from '../server/images';
import { plainPdf } from '../server/pdfs';
import { startServerProcess, type ServerProcess } from '../server/processes';
import { applicantUploads, freelancerAtFiscalAddress, privateSteps, type PrivateStep } from './applicant';
import { deployToMoto, describeWhenAvailable, motoUnavailable, REGION, serverEnvOnMoto, startMoto, synthesizedTemplate, textMessages, type Deployment, type Moto } from './moto';

const describeOnMoto = describeWhenAvailable('AWS emulator erasure', motoUnavailable());

const PERSON = { firstName: 'Irene', firstSurname: 'Sanz', secondSurname: 'Mora', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '21/09/1991' };
const ACTIVITY = { selfEmployedId: '45678901G', selfEmployedActivity: '1.673.2', selfEmployedDate: '01/02/2024', selfEmployedAtaCode: '', promotionalCode: '' };
const ADDRESS = { selfEmployedFiscalAddress: 'Calle Mayor 3', selfEmployedFiscalAdditionalAddress: '', selfEmployedFiscalPostalCode: '28013', selfEmployedFiscalCity: 'Madrid', selfEmployedFiscalCountry: 'ES' };
const APPLICANT = { id: '45678901G', email: 'irene.erased@example.com', phone: '+34612345603', password: 'Divilo-Erased-2026!', person: PERSON, activity: ACTIVITY, address: ADDRESS };
const MORE = { website: 'https://irene.example', countriesWhereOperate: ['ES'], diviloProduct: 'account', foundsOrigin: 'business-activity', assetsOrigin: 'savings', politicalPosition: false };

const DAY_MS = 86_400_000;
/** The variables the AWS SDK reads for its credentials, set to the server role's while the expiry runs. */
const CREDENTIAL_VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;

jest.setTimeout(300_000);

describeOnMoto('an abandoned application erased on "AWS" (moto, IAM enforced)', () => {
  const postgres = process.env.DATABASE_URL!;
  const schema = `erasure_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  let moto: Moto;
  let deployment: Deployment;
  let server: ServerProcess | undefined;
  let api: string;
  let dataDir: string;
  let serverEnv: Record<string, string>;
  let post: PrivateStep;
  const savedCredentials: Partial<Record<(typeof CREDENTIAL_VARIABLES)[number], string>> = {};

  const onPostgres = async <T>(work: (client: Client) => Promise<T>) => {
    const client = new Client({ connectionString: postgres });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const rowsOf = (sql: string, values: unknown[]) => onPostgres(async (client) => (await client.query(sql.replaceAll('"schema"', `"${schema}"`), values)).rows);
  // E-mails wait in the outbox; SMS go through SNS, read from moto's record of them.
  const lastCode = async (recipient: string) => {
    const text = recipient.startsWith('+')
      ? (await textMessages(moto)).filter((sms) => sms.phoneNumber === recipient).at(-1)?.text
      : ((await rowsOf(`select text from "schema".outbox where recipient = $1 order by id desc limit 1`, [recipient]))[0] as { text: string } | undefined)?.text;
    const code = /\b(\d{6})\b/.exec(text ?? '');
    if (!code) throw new Error(`no code sent to ${recipient}`);
    return code[1];
  };

  beforeAll(async () => {
    moto = await startMoto();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    api = `${base}/api`;
    post = privateSteps(api);
    deployment = await deployToMoto(moto, synthesizedTemplate(), base);
    await onPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-erasure-'));
    serverEnv = {
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: postgresUrlInSchema(postgres, schema),
      SERVER_SECRET: Buffer.alloc(32, 11).toString('base64'),
      ...serverEnvOnMoto(moto, deployment),
      IDENTITY_PROVIDER: 'manual',
      RATE_LIMIT_MAX: '5000',
      RATE_LIMIT_SENSITIVE_MAX: '1000',
      LOG_LEVEL: 'warn',
    };
    server = await startServerProcess({ ...serverEnv, PORT: String(port) });
  }, 180_000);

  afterAll(async () => {
    for (const name of CREDENTIAL_VARIABLES) {
      if (savedCredentials[name] === undefined) delete process.env[name];
      else process.env[name] = savedCredentials[name];
    }
    await server?.stop();
    await moto?.stop();
    await onPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('removes its uploads, its evidence copies, its storage identity and its rows 31 days after it was left', async () => {
    const { token, id } = await freelancerAtFiscalAddress(api, APPLICANT, lastCode);
    const { identityId, upload } = await applicantUploads(post, token, { bucket: deployment.bucket, endpoint: moto.endpoint });
    const model036 = await upload('model036', 'modelo-036.pdf', plainPdf(), 'application/pdf');
    expect((await post('documents', token, { kind: 'model036', key: model036 })).status).toBe(200);
    expect((await post('legalperson/freelance/tax', token, { selfEmployedTax: 'direct-simplified', model036 })).status).toBe(200);
    expect((await post('legalperson/freelance/moreinfo', token, MORE)).body).toMatchObject({ next: 'divilo-password' });
    expect((await post('password', token, { diviloPassword: APPLICANT.password, diviloPasswordConfirmation: APPLICANT.password })).body).toMatchObject({ next: 'check-identity' });
    const photos = {
      documentFront: await upload('documentFront', 'front.png', await documentPhoto('png'), 'image/png'),
      documentBack: await upload('documentBack', 'back.jpg', await documentPhoto('jpeg', { portrait: false, seed: 5 }), 'image/jpeg'),
      selfie: await upload('selfie', 'selfie.jpg', await realSelfie(), 'image/jpeg'),
    };
    for (const [kind, key] of Object.entries(photos)) expect((await post('documents', token, { kind, key })).status).toBe(200);
    expect((await post('identity-check', token, photos)).status).toBe(200);
    await server!.stop();
    server = undefined;

    // What the bucket holds of the application, read as its administrator: current keys, and every version.
    const asAdmin = new S3Client({ region: REGION, endpoint: moto.endpoint, forcePathStyle: true, credentials: moto.admin, maxAttempts: 1 });
    const inBucket = { Bucket: deployment.bucket };
    const areas = [`evidence/${id}/`, `private/${identityId}/`];
    const ofApplication = (key: string | undefined) => areas.some((area) => key?.startsWith(area));
    const currentKeys = async () => ((await asAdmin.send(new ListObjectsV2Command(inBucket))).Contents ?? []).map((object) => object.Key!).filter(ofApplication);
    const before = await currentKeys();
    expect(before.filter((key) => key.startsWith('evidence/')).map((key) => key.split('/')[2]).sort()).toEqual(['documentBack', 'documentFront', 'selfie']);
    expect(before.filter((key) => key.startsWith('private/'))).toHaveLength(4);

    // The expiry, with the server's configuration and its role's credentials, 31 days on.
    const config = loadConfig({ ...serverEnv, NODE_ENV: 'test' });
    for (const name of CREDENTIAL_VARIABLES) savedCredentials[name] = process.env[name];
    process.env.AWS_ACCESS_KEY_ID = deployment.server.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = deployment.server.secretAccessKey;
    delete process.env.AWS_SESSION_TOKEN;
    const handle = createDatabase({ dataDir, databaseUrl: config.databaseUrl });
    try {
      const secret = loadServerSecret(config.dataDir, config.serverSecret);
      const deps = { db: handle.db, identity: identityServiceOf(config, secret), auditLog: auditLogRepository(handle.db), storage: documentServiceOf(config, secret) };
      expect(await expireInactiveApplications(deps, new Date(Date.now() + 29 * DAY_MS))).toBe(0);
      expect(await expireInactiveApplications(deps, new Date(Date.now() + 31 * DAY_MS))).toBe(1);
    } finally {
      await handle.destroy();
    }

    // Nothing current is left; each key's latest version is a delete marker over what the lifecycle removes.
    expect(await currentKeys()).toEqual([]);
    const versions = await asAdmin.send(new ListObjectVersionsCommand(inBucket));
    const markers = (versions.DeleteMarkers ?? []).filter((marker) => ofApplication(marker.Key) && marker.IsLatest).map((marker) => marker.Key);
    expect(markers.sort()).toEqual([...before].sort());
    asAdmin.destroy();

    // The identity pool no longer knows the applicant's storage identity.
    const pool = new CognitoIdentityClient({ region: REGION, endpoint: moto.endpoint, credentials: moto.admin, maxAttempts: 1 });
    await expect(
      pool.send(new LookupDeveloperIdentityCommand({ IdentityPoolId: deployment.identityPoolId, DeveloperUserIdentifier: id, MaxResults: 1 })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    pool.destroy();

    // No row names the application, and its audit trail is kept without the applicant's data.
    expect(await rowsOf(`select id from "schema".onboarding_applications where id = $1`, [id])).toEqual([]);
    expect(await rowsOf(`select application_id from "schema".onboarding_documents where application_id = $1`, [id])).toEqual([]);
    const audit = JSON.stringify(await rowsOf(`select action, subject, details from "schema".audit_log order by id`, []));
    for (const personal of [APPLICANT.email, APPLICANT.id, APPLICANT.phone, PERSON.firstName, identityId]) expect(audit).not.toContain(personal);
    expect(audit).toContain('onboarding.application_erased');
  });
});
