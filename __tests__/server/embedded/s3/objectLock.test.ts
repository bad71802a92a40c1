// Object Lock retention, as S3 answers PutObjectRetention and GetObjectRetention: set by the server alone, a COMPLIANCE
// retention only ever moved later, and while it holds the object is neither deleted (DeleteObject, DeleteObjects) nor
// replaced; once it is over, both are allowed again. With the unmodified SDK, the endpoint's clock moved, not waited.
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, GetObjectRetentionCommand, HeadObjectCommand, PutObjectCommand, PutObjectRetentionCommand, type S3Client } from '@aws-sdk/client-s3';
import { describeEachDialect } from '../../helpers';
import { BUCKET, s3Failure, startStorage, testBytes, type StorageHarness } from './harness';

const DAY = 86_400_000;

describeEachDialect('embedded S3 Object Lock retention', (dialect) => {
  let storage: StorageHarness;
  let client: S3Client;
  beforeAll(async () => {
    storage = await startStorage(dialect);
    client = storage.client();
  });
  afterAll(() => storage.close());
  afterEach(() => {
    storage.clock.offsetMs = 0;
  });

  const retain = (Key: string, until: Date, Mode: 'COMPLIANCE' | 'GOVERNANCE' = 'COMPLIANCE') =>
    client.send(new PutObjectRetentionCommand({ Bucket: BUCKET, Key, Retention: { Mode, RetainUntilDate: until } }));
  const put = (Key: string) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: testBytes(100) }));

  it('keeps a locked object from being deleted or replaced until its date, then lets both happen', async () => {
    const key = 'evidence/app-1/selfie/aaa';
    await put(key);
    const until = new Date(Date.now() + 10 * DAY);
    await retain(key, until);
    expect(await client.send(new GetObjectRetentionCommand({ Bucket: BUCKET, Key: key }))).toMatchObject({ Retention: { Mode: 'COMPLIANCE', RetainUntilDate: until } });
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect({ mode: head.ObjectLockMode, until: head.ObjectLockRetainUntilDate?.toISOString() }).toEqual({ mode: 'COMPLIANCE', until: until.toISOString() });

    expect(await s3Failure(client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key })))).toEqual({ code: 'AccessDenied', status: 403 });
    expect(await s3Failure(put(key))).toEqual({ code: 'AccessDenied', status: 403 });
    const many = await client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: key }] } }));
    expect(many.Errors?.map((error) => [error.Key, error.Code])).toEqual([[key, 'AccessDenied']]);
    expect((await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).ContentLength).toBe(100);

    // The day after its date: deleted as any other object (by a client whose clock agrees with the endpoint's).
    storage.clock.offsetMs = 11 * DAY;
    const later = storage.client();
    later.config.systemClockOffset = 11 * DAY;
    try {
      await later.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
    } finally {
      later.destroy();
    }
    storage.clock.offsetMs = 0;
    expect(await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key })))).toEqual({ code: 'NoSuchKey', status: 404 });
  });

  it('moves a COMPLIANCE retention later, never earlier nor to GOVERNANCE; refuses a date past or a missing key', async () => {
    const key = 'evidence/app-2/documentFront/bbb';
    await put(key);
    const first = new Date(Date.now() + 5 * 365 * DAY);
    await retain(key, first);
    const later = new Date(first.getTime() + 365 * DAY);
    await retain(key, later);
    expect(await s3Failure(retain(key, first))).toEqual({ code: 'AccessDenied', status: 403 });
    expect(await s3Failure(retain(key, later, 'GOVERNANCE'))).toEqual({ code: 'AccessDenied', status: 403 });
    expect((await client.send(new GetObjectRetentionCommand({ Bucket: BUCKET, Key: key }))).Retention?.RetainUntilDate).toEqual(later);
    expect(await s3Failure(retain(key, new Date(Date.now() - DAY)))).toEqual({ code: 'InvalidArgument', status: 400 });
    expect(await s3Failure(retain('evidence/app-2/none', later))).toEqual({ code: 'NoSuchKey', status: 404 });
    await put('evidence/app-2/plain');
    expect(await s3Failure(client.send(new GetObjectRetentionCommand({ Bucket: BUCKET, Key: 'evidence/app-2/plain' })))).toEqual({ code: 'NoSuchObjectLockConfiguration', status: 404 });
  });

  it("refuses an applicant's credentials, even on its own area's objects", async () => {
    const identity = storage.identities.mint();
    const own = storage.client(identity);
    const key = `private/${identity.identityId}/model036.pdf`;
    await own.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: testBytes(10) }));
    expect(await s3Failure(own.send(new PutObjectRetentionCommand({ Bucket: BUCKET, Key: key, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: new Date(Date.now() + DAY) } })))).toEqual({
      code: 'AccessDenied',
      status: 403,
    });
    // Its own objects stay deletable by it.
    await own.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
  });

  it('of two retentions set at once, the later date stands', async () => {
    const key = 'evidence/app-3/selfie/ccc';
    await put(key);
    const dates = [3, 9, 5, 7].map((years) => new Date(Date.now() + years * 365 * DAY));
    const answers = await Promise.allSettled(dates.map((date) => retain(key, date)));
    expect(answers.some((answer) => answer.status === 'fulfilled')).toBe(true);
    expect((await client.send(new GetObjectRetentionCommand({ Bucket: BUCKET, Key: key }))).Retention?.RetainUntilDate).toEqual(dates[1]);
  });
});
