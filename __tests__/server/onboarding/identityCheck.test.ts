// The identity check against the whole server on both databases: photos uploaded with the browser's module to
// the embedded storage and checked as images, the step that starts the check, the manual check that hands the
// photos to the bank's reviewer with the face detector's flags, and an external provider's answers through the
// signed webhook.
import { createHmac, randomBytes } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { embeddedStorageCredentials } from '../../../server/plugins/storage';
import { loadServerSecret } from '../../../server/services/serverSecret';
import { applicantCredentials, uploadDocument } from '../../../src/documentStorage/uploadDocument';
import { describeEachDialect, logCollector } from '../helpers';
import { declaredHugePng, documentPhoto, flatPhoto, gradientPhoto, jpeg, pictureLessJpeg, pictureLessPng, png, realPhotoFile, realSelfie, selfiePhoto } from '../images';
import { plainPdf } from '../pdfs';
import { startLoginServerOn } from '../login/loginServer';

type Server = Awaited<ReturnType<typeof startLoginServerOn>>;
type Photos = { documentFront: string; documentBack: string; selfie: string };

const STEPS_BEFORE = ['signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone', 'register-as', 'your-activity', 'fiscal-address', 'tax-registration-income', 'tell-us-more-freelance'];
const SECRET = randomBytes(32).toString('hex');
const pdf = plainPdf();
/** The provider's signature of `raw`, made at `at` (Unix seconds; default now): `t=<at>,v1=<hex HMAC of "<at>.<raw>">`. */
const sign = (raw: string, secret = SECRET, at = Math.floor(Date.now() / 1000)) => `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${raw}`).digest('hex')}`;
// The manual check runs the face detector on two photos of each check: a few seconds each on a busy machine.
jest.setTimeout(90_000);

describeEachDialect('onboarding: the identity check', (dialect) => {
  let manual: Server;
  let external: Server;
  const logs = logCollector();
  beforeAll(async () => {
    // One server secret for both: the embedded storage endpoint reads its process's identity pool secret.
    // Many uploads and checks from one address: the rate limits are not what this suite is about.
    const shared = { SERVER_SECRET: randomBytes(32).toString('base64'), RATE_LIMIT_MAX: '5000', RATE_LIMIT_SENSITIVE_MAX: '1000' };
    [manual, external] = await Promise.all([
      startLoginServerOn(dialect, shared),
      startLoginServerOn(dialect, { ...shared, IDENTITY_PROVIDER: 'webhook', IDENTITY_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'info' }, { logStream: logs.stream }),
    ]);
  });
  afterAll(() => Promise.all([manual.close(), external.close()]));

  let applicants = 0;
  /** An application whose earlier steps are done (as their own calls leave them), its token and storage identity. */
  async function applicant(server: Server, { passwordSet = true } = {}) {
    applicants += 1;
    const idDocument = `${String(30_000_000 + applicants)}${'TRWAGMYFPDXBNJZSQVHLCKE'[(30_000_000 + applicants) % 23]}`;
    const created = await server.app.applications.create(
      {
        email: `photos${applicants}-${dialect}@example.com`,
        idDocument,
        answers: { residenceCountry: 'ES' },
        completedSteps: passwordSet ? [...STEPS_BEFORE, 'divilo-password'] : STEPS_BEFORE,
        language: 'es',
      },
      new Date(),
    );
    await server.app.applications.save(created, { personType: 'freelance' }, new Date());
    const bearer = await server.app.onboardingTokens.issue(created.id);
    const storage = (await call(server, 'POST', 'storage-identity', bearer)).body as { identityId: string; token: string };
    return { id: created.id, bearer, identityId: storage.identityId, token: storage.token };
  }
  type Applicant = Awaited<ReturnType<typeof applicant>>;

  async function call(server: Server, method: 'GET' | 'POST', path: string, bearer: string, body?: unknown) {
    const response = await fetch(`${server.api}/onboarding-management-private/${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** Uploads `bytes` as the browser does (typed `type`) and reports it as `kind`: the server's answer and the key. */
  async function uploadPhoto(server: Server, who: Applicant, kind: string, name: string, bytes: Buffer, type: string) {
    const config = { region: server.config.storage.region, bucket: server.config.storage.bucket, endpoint: `${server.base}/s3` };
    const credentials = applicantCredentials(who, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
    const file = new Blob([new Uint8Array(bytes)], { type });
    const { key } = await uploadDocument(file, { key: `${kind}/${name}`, level: 'private', credentials, identityId: who.identityId, config });
    return { key, ...(await call(server, 'POST', 'documents', who.bearer, { kind, key })) };
  }

  /** The three photos uploaded and checked: a PNG of the front, JPEGs of the back and of a real face (unless others are given). */
  async function photosOf(server: Server, who: Applicant, files: { front?: Buffer; selfie?: Buffer } = {}): Promise<Photos> {
    const front = await uploadPhoto(server, who, 'documentFront', 'front.png', files.front ?? (await documentPhoto('png')), 'image/png');
    const back = await uploadPhoto(server, who, 'documentBack', 'back.jpg', await documentPhoto('jpeg', { portrait: false, seed: 3 }), 'image/jpeg');
    const selfie = await uploadPhoto(server, who, 'selfie', 'selfie.jpg', files.selfie ?? (await realSelfie()), 'image/jpeg');
    for (const answer of [front, back, selfie]) expect(answer.status).toBe(200);
    return { documentFront: front.key, documentBack: back.key, selfie: selfie.key };
  }

  /** Whether the key is in storage, asked with the server's own credentials. */
  async function stored(server: Server, key: string): Promise<boolean> {
    const credentials = embeddedStorageCredentials(loadServerSecret(server.config.dataDir, server.config.serverSecret));
    const client = new S3Client({ region: server.config.storage.region, endpoint: `${server.base}/s3`, forcePathStyle: true, maxAttempts: 1, credentials });
    try {
      await client.send(new HeadObjectCommand({ Bucket: server.config.storage.bucket, Key: key }));
      return true;
    } catch (error) {
      if ((error as Error).name === 'NotFound') return false;
      throw error;
    }
  }

  /** The provider's call: `raw` as the JSON body (none when undefined), `signature` in its header. */
  const webhook = (server: Server, raw: string | undefined, signature?: string) =>
    fetch(`${server.api}/onboarding-management/identity-check/webhook`, {
      method: 'POST',
      headers: { ...(raw === undefined ? {} : { 'content-type': 'application/json' }), ...(signature === undefined ? {} : { 'x-divilo-signature': signature }) },
      body: raw,
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }));

  const fieldsOf = (body: Record<string, unknown>) => Object.fromEntries((body.errors as { field: string; id: string }[]).map(({ field, id }) => [field, id]));
  const actionsOf = async (server: Server, id: string) => (await server.app.auditLog.listBySubject(`application:${id}`)).filter((entry) => entry.action.startsWith('onboarding.identity_check'));

  it('accepts photos, and refuses a renamed PDF, a mistyped PNG, a truncated or corrupt file, the wrong sizes, a blank or featureless picture', async () => {
    const who = await applicant(manual);
    await photosOf(manual, who);
    const truncated = png(800, 600).subarray(0, 300);
    const corruptJpeg = Buffer.from(jpeg(800, 600));
    corruptJpeg.writeUInt16BE(0xfff0, 4);
    const cases: [string, Buffer, string, number, string][] = [
      ['renamed.png', pdf, 'image/png', 422, 'DOCUMENT_NOT_IMAGE'],
      ['typed-as-pdf.png', png(800, 600), 'application/pdf', 422, 'DOCUMENT_NOT_IMAGE'],
      ['png-typed-as-jpeg.jpg', png(800, 600), 'image/jpeg', 422, 'DOCUMENT_NOT_IMAGE'],
      ['truncated.png', truncated, 'image/png', 422, 'DOCUMENT_NOT_DECODABLE'],
      ['corrupt.jpg', corruptJpeg, 'image/jpeg', 422, 'DOCUMENT_NOT_DECODABLE'],
      ['tiny.png', png(10, 10), 'image/png', 422, 'IMAGE_TOO_SMALL'],
      ['narrow.jpg', jpeg(319, 2000), 'image/jpeg', 422, 'IMAGE_TOO_SMALL'],
      ['panorama.png', png(12_001, 320), 'image/png', 422, 'IMAGE_TOO_LARGE'],
      ['declared-huge.png', declaredHugePng(12_000, 12_000), 'image/png', 422, 'IMAGE_TOO_LARGE'],
      ['grey.jpg', jpeg(1200, 760), 'image/jpeg', 422, 'IMAGE_BLANK'],
      ['covered-lens.png', await flatPhoto('png', 960, 1280, '#101010'), 'image/png', 422, 'IMAGE_BLANK'],
      ['gradient.jpg', await gradientPhoto('jpeg', 1200, 900), 'image/jpeg', 422, 'IMAGE_UNIFORM'],
    ];
    for (const [name, bytes, type, status, code] of cases) {
      const refused = await uploadPhoto(manual, who, 'selfie', name, bytes, type);
      expect({ name, status: refused.status, code: refused.body.code }).toEqual({ name, status, code });
      if (code === 'IMAGE_TOO_SMALL' || code === 'IMAGE_TOO_LARGE') expect(refused.body).toMatchObject({ minPixels: 320, maxPixels: 12_000 });
      expect(await stored(manual, refused.key)).toBe(false);
    }
    // The photos accepted before stay recorded; the modelo 036 is still a PDF and nothing else.
    const listed = (await call(manual, 'GET', 'documents', who.bearer)).body.documents as { kind: string; key: string }[];
    expect(listed.map((document) => document.kind).sort()).toEqual(['documentBack', 'documentFront', 'selfie']);
    expect((await uploadPhoto(manual, who, 'model036', 'model.pdf', png(800, 600), 'image/png')).body).toMatchObject({ code: 'DOCUMENT_NOT_PDF' });
    const refusals = (await manual.app.auditLog.listBySubject(`application:${who.id}`)).filter((entry) => entry.action === 'onboarding.document_refused');
    expect(refusals.map((entry) => entry.details?.code)).toEqual([...cases.map(([, , , , code]) => code), 'DOCUMENT_NOT_PDF']);
  });

  it("refuses the security review's files without a picture, so they can never start a check", async () => {
    const who = await applicant(manual);
    const front = await uploadPhoto(manual, who, 'documentFront', 'front.png', pictureLessPng(), 'image/png');
    const back = await uploadPhoto(manual, who, 'documentBack', 'back.jpg', pictureLessJpeg(), 'image/jpeg');
    const selfie = await uploadPhoto(manual, who, 'selfie', 'selfie.png', pictureLessPng(), 'image/png');
    expect([front, back, selfie].map((answer) => [answer.status, answer.body.code])).toEqual([
      [422, 'DOCUMENT_NOT_DECODABLE'],
      [422, 'DOCUMENT_NOT_DECODABLE'],
      [422, 'DOCUMENT_NOT_DECODABLE'],
    ]);
    const started = await call(manual, 'POST', 'identity-check', who.bearer, { documentFront: front.key, documentBack: back.key, selfie: selfie.key });
    expect(started.status).toBe(400);
    expect(fieldsOf(started.body)).toEqual({ documentFront: 'validations.documentMissing', documentBack: 'validations.documentMissing', selfie: 'validations.documentMissing' });
    expect(await actionsOf(manual, who.id)).toEqual([]);
  });

  it('starts only with photos the server checked for this application, each of its own kind', async () => {
    const who = await applicant(manual);
    const photos = await photosOf(manual, who);
    const empty = await call(manual, 'POST', 'identity-check', who.bearer, { ...photos, selfie: '' });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body)).toEqual({ selfie: 'validations.required' });
    const swapped = await call(manual, 'POST', 'identity-check', who.bearer, { ...photos, selfie: photos.documentFront });
    expect(fieldsOf(swapped.body)).toEqual({ selfie: 'validations.documentMissing' });
    const refused = await uploadPhoto(manual, who, 'documentBack', 'cut.jpg', jpeg(800, 600).subarray(0, 200), 'image/jpeg');
    expect(refused.status).toBe(422);
    const unchecked = await call(manual, 'POST', 'identity-check', who.bearer, { ...photos, documentBack: refused.key });
    expect(unchecked.status).toBe(400);
    expect(fieldsOf(unchecked.body)).toEqual({ documentBack: 'validations.documentMissing' });
    // Another applicant's checked photos are not this one's.
    const other = await applicant(manual);
    const theirs = await call(manual, 'POST', 'identity-check', other.bearer, photos);
    expect(fieldsOf(theirs.body)).toEqual({ documentFront: 'validations.documentMissing', documentBack: 'validations.documentMissing', selfie: 'validations.documentMissing' });
    expect(await actionsOf(manual, who.id)).toEqual([]);
  });

  it('keeps the order of the journey: no identity check before the password', async () => {
    const who = await applicant(manual, { passwordSet: false });
    const photos = await photosOf(manual, who);
    expect(await call(manual, 'POST', 'identity-check', who.bearer, photos)).toEqual({ status: 409, body: expect.objectContaining({ code: 'STEP_OUT_OF_ORDER', currentStep: 'divilo-password' }) });
    expect((await call(manual, 'GET', 'identity-check', who.bearer)).body).toMatchObject({ code: 'IDENTITY_CHECK_NOT_STARTED' });
  });

  it("manual: never approves; hands the checked photos to the bank's review at once, the contract comes next, and a retry starts nothing new", async () => {
    const who = await applicant(manual);
    const photos = await photosOf(manual, who);
    const started = await call(manual, 'POST', 'identity-check', who.bearer, photos);
    expect(started).toMatchObject({ status: 200, body: { next: 'check-identity-waiting', application: { currentStep: 'docu-sign', answers: { ...photos, identityCheck: { status: 'needs-review', provider: 'manual' } } } } });
    // A face in the selfie and on the document: nothing to flag.
    expect((started.body.application as { answers: { identityCheck: Record<string, unknown> } }).answers.identityCheck.flags).toBeUndefined();
    expect(await call(manual, 'GET', 'identity-check', who.bearer)).toEqual({ status: 200, body: { checkId: expect.any(String), status: 'needs-review' } });
    const application = (await call(manual, 'GET', 'application', who.bearer)).body;
    expect(application).toMatchObject({ currentStep: 'docu-sign', completedSteps: expect.arrayContaining(['check-identity', 'check-identity-waiting']) });

    const [again, twice] = await Promise.all([call(manual, 'POST', 'identity-check', who.bearer, photos), call(manual, 'POST', 'identity-check', who.bearer, photos)]);
    expect([again.status, twice.status]).toEqual([200, 200]);
    const audit = await actionsOf(manual, who.id);
    expect(audit.map((entry) => [entry.actor, entry.action, entry.details])).toEqual([
      [`application:${who.id}`, 'onboarding.identity_check_started', { provider: 'manual' }],
      ['identity-provider:manual', 'onboarding.identity_check_needs_review', { provider: 'manual' }],
    ]);
    expect(audit.every((entry) => entry.requestId)).toBe(true);
  });

  it("manual: flags for the reviewer a selfie without a face or with several, and a document without a face, and still lets the applicant go on", async () => {
    const faceless = await applicant(manual);
    const photos = await photosOf(manual, faceless, { front: await documentPhoto('png', { portrait: false }), selfie: await selfiePhoto('jpeg') });
    const started = await call(manual, 'POST', 'identity-check', faceless.bearer, photos);
    expect(started.body).toMatchObject({ application: { currentStep: 'docu-sign', answers: { identityCheck: { status: 'needs-review' } } } });
    const flagsOf = async (id: string) => ((await manual.app.applications.find(id))!.answers.identityCheck as { flags?: string[] }).flags;
    expect(await flagsOf(faceless.id)).toEqual(['no-face-in-selfie', 'no-face-on-document']);
    expect((await actionsOf(manual, faceless.id)).at(-1)?.details).toEqual({ provider: 'manual', flags: ['no-face-in-selfie', 'no-face-on-document'] });
    // The flags are the bank's: the applicant's view of the application never shows them.
    expect(JSON.stringify(started.body)).not.toContain('no-face');
    expect(JSON.stringify((await call(manual, 'GET', 'application', faceless.bearer)).body)).not.toContain('no-face');

    const group = await applicant(manual);
    const { default: sharp } = await import('sharp');
    const threePeople = await sharp(realPhotoFile(1)).resize(1280).jpeg().toBuffer();
    const groupPhotos = await photosOf(manual, group, { selfie: threePeople });
    expect((await call(manual, 'POST', 'identity-check', group.bearer, groupPhotos)).status).toBe(200);
    expect(await flagsOf(group.id)).toEqual(['several-faces-in-selfie']);
  });

  it('manual: two first sends at once start one check', async () => {
    const who = await applicant(manual);
    const photos = await photosOf(manual, who);
    const answers = await Promise.all([1, 2, 3].map(() => call(manual, 'POST', 'identity-check', who.bearer, photos)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await actionsOf(manual, who.id)).map((entry) => entry.action)).toEqual(['onboarding.identity_check_started', 'onboarding.identity_check_needs_review']);
  });

  it('manual: rejects photos that are no longer the checked ones, and the applicant takes them again', async () => {
    const who = await applicant(manual);
    const photos = await photosOf(manual, who);
    // The check was started (as the step leaves it) and the selfie replaced before the verifier looked.
    const application = (await manual.app.applications.find(who.id))!;
    await manual.app.applications.save(
      application,
      { answers: { ...application.answers, ...photos, identityCheck: { status: 'pending', provider: 'manual', startedAt: new Date().toISOString() } }, completedSteps: [...application.completedSteps, 'check-identity'] },
      new Date(),
    );
    // Through the API the started check's photos are frozen; a record changed by other means (one written before
    // photos were frozen) is what the verifier still refuses to look at.
    const replaced = await uploadPhoto(manual, who, 'selfie', 'second.jpg', await selfiePhoto('jpeg', { seed: 5 }), 'image/jpeg');
    expect(replaced.body).toMatchObject({ code: 'EVIDENCE_FROZEN' });
    await manual.app.onboardingDocuments.save(who.id, { kind: 'selfie', key: replaced.key, size: 1, etag: '"0"' }, manual.app.clock());
    await manual.app.identityCheck.verifier.start(who.id, photos);
    expect(await call(manual, 'GET', 'identity-check', who.bearer)).toEqual({ status: 200, body: { status: 'rejected', reason: 'images-missing' } });
    expect((await call(manual, 'GET', 'application', who.bearer)).body).toMatchObject({ currentStep: 'check-identity' });
    expect((await actionsOf(manual, who.id)).map((entry) => entry.details)).toEqual([{ provider: 'manual', reason: 'images-missing' }]);
  });

  it('manual: a check left pending (cut short by an outage) goes to review when the photos are sent again, once, and not while it may still be running', async () => {
    const who = await applicant(manual);
    const photos = await photosOf(manual, who);
    const application = (await manual.app.applications.find(who.id))!;
    const startedAt = manual.app.clock();
    await manual.app.applications.save(
      application,
      { answers: { ...application.answers, ...photos, identityCheck: { status: 'pending', provider: 'manual', startedAt: startedAt.toISOString() } }, completedSteps: [...application.completedSteps, 'check-identity'] },
      new Date(),
    );
    // Each run of the check looks at the photos with the face detector: the runs are counted.
    const verifier = manual.app.identityCheck.verifier;
    const start = verifier.start;
    let runs = 0;
    verifier.start = (...args) => {
      runs += 1;
      return start.apply(verifier, args);
    };
    try {
      // Sent again while the check may still be running: nothing runs again.
      const early = await Promise.all([1, 2, 3].map(() => call(manual, 'POST', 'identity-check', who.bearer, photos)));
      expect(early.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(runs).toBe(0);
      // Five minutes on, it was cut short: three sends at once run it once.
      manual.clock.offsetMs += 5 * 60_000;
      const later = await Promise.all([1, 2, 3].map(() => call(manual, 'POST', 'identity-check', who.bearer, photos)));
      expect(later.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(runs).toBe(1);
    } finally {
      verifier.start = start;
      manual.clock.offsetMs -= 5 * 60_000;
    }
    expect((await call(manual, 'POST', 'identity-check', who.bearer, photos)).body).toMatchObject({ next: 'check-identity-waiting', application: { currentStep: 'docu-sign' } });
    expect((await actionsOf(manual, who.id)).map((entry) => entry.action)).toEqual(['onboarding.identity_check_needs_review']);
  });

  it('webhook: pending until the provider answers; only a signed answer counts', async () => {
    const who = await applicant(external);
    const photos = await photosOf(external, who);
    const started = await call(external, 'POST', 'identity-check', who.bearer, photos);
    expect(started).toMatchObject({ status: 200, body: { next: 'check-identity-waiting', application: { currentStep: 'check-identity-waiting' } } });
    const { checkId } = (await call(external, 'GET', 'identity-check', who.bearer)).body as { checkId: string };
    expect((await call(external, 'GET', 'identity-check', who.bearer)).body).toEqual({ checkId: expect.stringMatching(/^[\w-]{36}$/), status: 'pending' });

    const raw = JSON.stringify({ applicationId: who.id, checkId, status: 'approved' });
    const at = Math.floor(Date.now() / 1000);
    const forged = [
      ['no signature', await webhook(external, raw)],
      ['not hex', await webhook(external, raw, `t=${at},v1=${'x'.repeat(64)}`)],
      ['the body alone signed, no time', await webhook(external, raw, createHmac('sha256', SECRET).update(raw).digest('hex'))],
      ['another time than signed', await webhook(external, raw, sign(raw).replace(`t=${at}`, `t=${at + 1}`))],
      ['another secret', await webhook(external, raw, sign(raw, `${SECRET}x`))],
      ['another body', await webhook(external, raw.replace('approved', 'rejected'), sign(raw))],
      ['no body', await webhook(external, undefined, sign(''))],
      ['no secret configured', await webhook(manual, raw, sign(raw))],
    ] as const;
    for (const [name, answer] of forged) expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status: 401, code: 'INVALID_SIGNATURE' });
    expect((await call(external, 'GET', 'identity-check', who.bearer)).body).toEqual({ checkId, status: 'pending' });
    expect((await webhook(external, JSON.stringify({ applicationId: 'no-such-application', status: 'approved' }), sign(JSON.stringify({ applicationId: 'no-such-application', status: 'approved' })))).body).toMatchObject({
      code: 'APPLICATION_NOT_FOUND',
    });
  });

  /** The id of the application's check, as the applicant's page reads it (the provider's reference). */
  const checkIdOf = async (server: Server, who: Applicant) => ((await call(server, 'GET', 'identity-check', who.bearer)).body as { checkId: string }).checkId;

  it('webhook: a rejection sends the applicant back to the photos, a new check then an approval moves on, no secret in the audit or the logs', async () => {
    const who = await applicant(external);
    const photos = await photosOf(external, who);
    await call(external, 'POST', 'identity-check', who.bearer, photos);
    const first = await checkIdOf(external, who);
    const rejection = JSON.stringify({ applicationId: who.id, checkId: first, status: 'rejected', reason: 'document-expired' });
    const rejectionSignature = sign(rejection);
    expect(await webhook(external, rejection, rejectionSignature)).toEqual({ status: 200, body: { applicationId: who.id, status: 'rejected' } });
    expect(await call(external, 'GET', 'identity-check', who.bearer)).toEqual({ status: 200, body: { checkId: first, status: 'rejected', reason: 'document-expired' } });
    const back = (await call(external, 'GET', 'application', who.bearer)).body;
    expect(back.currentStep).toBe('check-identity');
    expect(back.completedSteps).not.toContain('check-identity');
    // The same result signed anew (a provider's retry) changes nothing; an approval of a check already decided is refused.
    expect((await webhook(external, rejection, sign(rejection, SECRET, Math.floor(Date.now() / 1000) - 1))).status).toBe(200);
    const late = JSON.stringify({ applicationId: who.id, checkId: first, status: 'approved' });
    expect((await webhook(external, late, sign(late))).body).toMatchObject({ code: 'IDENTITY_CHECK_NOT_PENDING' });

    const retaken = await call(external, 'POST', 'identity-check', who.bearer, photos);
    expect(retaken.body).toMatchObject({ next: 'check-identity-waiting', application: { currentStep: 'check-identity-waiting', answers: { identityCheck: { status: 'pending' } } } });
    const second = await checkIdOf(external, who);
    expect(second).not.toBe(first);
    const approval = JSON.stringify({ applicationId: who.id, checkId: second, status: 'approved' });
    const approvalSignature = sign(approval);
    expect((await webhook(external, approval, approvalSignature)).status).toBe(200);
    expect((await call(external, 'GET', 'application', who.bearer)).body).toMatchObject({ currentStep: 'docu-sign', answers: { identityCheck: { status: 'approved', provider: 'webhook' } } });

    const audit = await actionsOf(external, who.id);
    expect(audit.map((entry) => [entry.action, entry.details])).toEqual([
      ['onboarding.identity_check_started', { provider: 'webhook' }],
      ['onboarding.identity_check_rejected', { provider: 'webhook', reason: 'document-expired' }],
      ['onboarding.identity_check_started', { provider: 'webhook' }],
      ['onboarding.identity_check_approved', { provider: 'webhook' }],
    ]);
    const everything = JSON.stringify(await external.app.auditLog.listBySubject(`application:${who.id}`));
    expect(logs.text()).toContain('/identity-check/webhook');
    for (const secret of [SECRET, rejectionSignature.slice(-64), approvalSignature.slice(-64), who.bearer, who.token]) {
      expect(everything).not.toContain(secret);
      expect(logs.text()).not.toContain(secret);
    }
  });

  it("webhook: an old signed rejection sent again decides nothing about the applicant's new check", async () => {
    const who = await applicant(external);
    const photos = await photosOf(external, who);
    await call(external, 'POST', 'identity-check', who.bearer, photos);
    const rejection = JSON.stringify({ applicationId: who.id, checkId: await checkIdOf(external, who), status: 'rejected', reason: 'document-expired' });
    const signature = sign(rejection);
    expect((await webhook(external, rejection, signature)).status).toBe(200);
    // The applicant takes new photos; their check waits for the provider.
    await call(external, 'POST', 'identity-check', who.bearer, photos);
    expect((await call(external, 'GET', 'identity-check', who.bearer)).body).toMatchObject({ status: 'pending' });

    // Whoever kept the signed rejection sends it again: at once, and after five minutes.
    expect((await webhook(external, rejection, signature)).body).toMatchObject({ code: 'WEBHOOK_REPLAYED' });
    external.clock.offsetMs = 5 * 60_000 + 1000;
    try {
      expect(await webhook(external, rejection, signature)).toMatchObject({ status: 401, body: { code: 'SIGNATURE_EXPIRED' } });
      // Signed anew (only the provider can), a result about the first check still decides nothing about the second.
      const now = Math.floor((Date.now() + external.clock.offsetMs) / 1000);
      expect(await webhook(external, rejection, sign(rejection, SECRET, now))).toMatchObject({ status: 409, body: { code: 'IDENTITY_CHECK_NOT_PENDING' } });
    } finally {
      external.clock.offsetMs = 0;
    }
    expect((await call(external, 'GET', 'identity-check', who.bearer)).body).toMatchObject({ status: 'pending' });
    expect((await actionsOf(external, who.id)).map((entry) => entry.action)).toEqual([
      'onboarding.identity_check_started',
      'onboarding.identity_check_rejected',
      'onboarding.identity_check_started',
    ]);
  });

  it('webhook: one delivery sent ten times at once is taken once', async () => {
    const who = await applicant(external);
    await call(external, 'POST', 'identity-check', who.bearer, await photosOf(external, who));
    const approval = JSON.stringify({ applicationId: who.id, checkId: await checkIdOf(external, who), status: 'approved' });
    const signature = sign(approval);
    const answers = await Promise.all(Array.from({ length: 10 }, () => webhook(external, approval, signature)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.body.code === 'WEBHOOK_REPLAYED')).toBe(true);
    expect((await actionsOf(external, who.id)).map((entry) => entry.action)).toEqual(['onboarding.identity_check_started', 'onboarding.identity_check_approved']);
  });
});
