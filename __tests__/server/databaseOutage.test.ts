// The database going away under write traffic, as a failover or a crash does it to the server: four applicants save
// a wizard step as fast as they can while the test kills PostgreSQL's postmaster (kill -9) three times and starts it
// again. The server process must live through it, answer 503 with Retry-After meanwhile (never 500), save again
// once the database is back, and leave no save without its audit entry.
import { randomBytes } from 'node:crypto';
import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../server/db';
import { embeddedIdentityCredentials } from '../../server/plugins/identity';
import { embeddedStorageCredentials } from '../../server/plugins/storage';
import { applicationRepository } from '../../server/repositories/applicationRepository';
import { onboardingTokens } from '../../server/services/onboardingTokens';
import { deriveKey } from '../../server/services/serverSecret';
import { freePort } from './helpers';
import { postgresBinaries, startPrivatePostgres, type PrivatePostgres } from './privatePostgres';
import { startServerProcess, type ServerProcess } from './processes';

const bin = postgresBinaries();
if (!bin) {
  const message = "PostgreSQL's server programs (initdb, pg_ctl) are not installed: the database outage test cannot run.";
  if (process.env.CI) throw new Error(message);
  process.stderr.write(`${message}\n`);
}

jest.setTimeout(300_000);

/** A first name of its own for every save (`Lucía Ab`, `Lucía Ac`, …): no save repeats the answers another made. */
const nameOf = (turn: number) => `Lucía ${[...(turn + 26).toString(26)].map((digit, index) => String.fromCharCode((index === 0 ? 65 : 97) + Number.parseInt(digit, 26))).join('')}`;
const PERSON = { firstSurname: 'Pérez', secondSurname: 'Núñez', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };
const APPLICANTS = 4;
const OUTAGES = 3;

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
}

(bin ? describe : describe.skip)('the database killed under write traffic', () => {
  let postgres: PrivatePostgres;
  let server: ServerProcess;
  let database: DatabaseHandle;
  let dataDir: string;
  let base: string;
  let secret: Buffer;
  const applicants: { id: string; token: string; answers: Answer[] }[] = [];
  /** Told of every answer as it arrives. */
  const listeners = new Set<() => void>();

  beforeAll(async () => {
    postgres = await startPrivatePostgres(bin!);
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-outage-'));
    secret = randomBytes(32);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    database = createDatabase({ dataDir, databaseUrl: postgres.url });
    await migrateToLatest(database.db);
    const tokens = onboardingTokens({ key: deriveKey(secret, 'onboarding-tokens'), lifetimeSeconds: 3600, issuer: base, clock: () => new Date() });
    const applications = applicationRepository(database.db);
    for (let i = 0; i < APPLICANTS; i += 1) {
      const application = await applications.create(
        { email: `outage${i}@example.com`, idDocument: `outage-${i}`, answers: {}, completedSteps: ['signUp', 'reg-code'], language: 'es' },
        new Date(),
      );
      applicants.push({ id: application.id, token: await tokens.issue(application.id), answers: [] });
    }
    server = await startServerProcess({
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      SERVER_SECRET: secret.toString('base64'),
      // The applicants all come from this one address, faster than any person: no rate limit in the way.
      RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'warn',
    });
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null) await server.stop();
    await database?.destroy();
    await postgres?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Saves personal-info over and over with another first name each time, so that every save changes the application. */
  async function keepSaving(applicant: (typeof applicants)[number], running: () => boolean) {
    for (let turn = 0; running(); turn += 1) {
      let answer: Answer;
      try {
        const response = await fetch(`${base}/api/onboarding-management-private/personal-info`, {
          method: 'POST',
          headers: { authorization: `Bearer ${applicant.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...PERSON, firstName: nameOf(turn) }),
        });
        const body = (await response.json()) as { code?: string };
        answer = { status: response.status, code: body.code, retryAfter: response.headers.get('retry-after') };
      } catch (error) {
        // The server no longer answers at all: its process ended, or dropped the connection.
        answer = { status: 0, code: (error as Error).message, retryAfter: null };
      }
      applicant.answers.push(answer);
      for (const listener of [...listeners]) listener();
      if (answer.status === 0) return;
    }
  }

  /** Waits until every applicant has had `count` more answers that `match` accepts than now. */
  async function eachApplicantGets(match: (answer: Answer) => boolean, count = 1) {
    const from = applicants.map((applicant) => applicant.answers.filter(match).length);
    const reached = () => applicants.every((applicant, index) => applicant.answers.filter(match).length >= from[index] + count);
    const stopped = () => applicants.some((applicant) => applicant.answers.some((answer) => answer.status === 0));
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (reached()) resolve();
        else if (stopped() || server.child.exitCode !== null) reject(new Error(`the server stopped answering:\n${server.output.stderr.slice(-3000)}`));
        else return;
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  }

  it('lives through three kills of the postmaster, answering 503 meanwhile and saving again after each', async () => {
    let running = true;
    const traffic = applicants.map((applicant) => keepSaving(applicant, () => running));
    try {
      await eachApplicantGets((answer) => answer.status === 200, 3);
      for (let outage = 0; outage < OUTAGES; outage += 1) {
        await postgres.kill();
        await eachApplicantGets((answer) => answer.status === 503);
        await postgres.start();
        await eachApplicantGets((answer) => answer.status === 200, 3);
      }
    } finally {
      running = false;
      await Promise.all(traffic);
    }

    expect(server.child.exitCode).toBeNull();
    const everyAnswer = applicants.flatMap((applicant) => applicant.answers);
    // Saved, or refused for the outage with a stable code and a time to come back: nothing else.
    const unexpected = everyAnswer.filter((answer) => !(answer.status === 200 || (answer.status === 503 && answer.code === 'DATABASE_UNAVAILABLE' && answer.retryAfter !== null)));
    expect(unexpected).toEqual([]);
    expect(everyAnswer.filter((answer) => answer.status === 503).length).toBeGreaterThanOrEqual(OUTAGES * APPLICANTS);
  });

  it('answers as the services it stands in for while the database is away: /health 503, storage 503, identity an internal error', async () => {
    const storage = new S3Client({ region: 'eu-west-1', endpoint: `${base}/s3`, forcePathStyle: true, credentials: embeddedStorageCredentials(secret), maxAttempts: 1 });
    const identity = new CognitoIdentityProviderClient({ region: 'eu-west-1', endpoint: `${base}/cognito`, credentials: embeddedIdentityCredentials(secret), maxAttempts: 1 });
    const read = () => storage.send(new GetObjectCommand({ Bucket: 'divilo-documents', Key: 'private/nobody/nothing.pdf' })).catch((error: { name: string; $metadata: { httpStatusCode?: number } }) => error);
    const user = () => identity.send(new AdminGetUserCommand({ UserPoolId: 'local_Divilo1', Username: '99999999R' })).catch((error: { name: string }) => error);
    let away = false;
    try {
      await postgres.kill();
      away = true;
      const health = await fetch(`${base}/health`);
      expect({ status: health.status, code: ((await health.json()) as { code: string }).code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      expect(await read()).toMatchObject({ name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } });
      expect(await user()).toMatchObject({ name: 'InternalErrorException' });

      await postgres.start();
      away = false;
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect(await read()).toMatchObject({ name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
      expect(await user()).toMatchObject({ name: 'UserNotFoundException' });
    } finally {
      if (away) await postgres.start();
      storage.destroy();
      identity.destroy();
    }
    expect(server.child.exitCode).toBeNull();
    expect(await server.stop()).toBe(0);
  });

  it('left every save it made with its audit entry, and every save it answered 200 for', async () => {
    for (const applicant of applicants) {
      const application = (await applicationRepository(database.db).find(applicant.id))!;
      const audited = await database.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('subject', '=', `application:${applicant.id}`)
        .where('action', '=', 'onboarding.step_saved')
        .executeTakeFirstOrThrow();
      const saves = application.version - 1;
      expect(Number(audited.count)).toBe(saves);
      // A save whose answer was lost with the connection may have committed; one answered 200 surely did.
      expect(saves).toBeGreaterThanOrEqual(applicant.answers.filter((answer) => answer.status === 200).length);
    }
  });
});
