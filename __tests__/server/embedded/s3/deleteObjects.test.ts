import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { describeEachDialect } from '../../helpers';
import { BUCKET, signedFetch, startStorage, testBytes, type StorageHarness } from './harness';

describeEachDialect('embedded S3 DeleteObjects', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect);
  });
  afterAll(async () => {
    await storage.close();
  });

  it('deletes many keys in one request, as the unmodified SDK sends it, refusing each key the caller may not write', async () => {
    const server = storage.client();
    const applicant = storage.identities.mint();
    const own = `private/${applicant.identityId}/`;
    for (const key of [`${own}a.pdf`, `${own}b.pdf`, 'public/terms.pdf']) await server.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: testBytes(10) }));

    const answer = await storage.client(applicant).send(
      new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: `${own}a.pdf` }, { Key: 'public/terms.pdf' }, { Key: `${own}never-stored.pdf` }] } }),
    );
    expect(answer.Deleted?.map((deleted) => deleted.Key)).toEqual([`${own}a.pdf`, `${own}never-stored.pdf`]);
    expect(answer.Errors).toEqual([expect.objectContaining({ Key: 'public/terms.pdf', Code: 'AccessDenied' })]);

    const quiet = await server.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: `${own}b.pdf` }], Quiet: true } }));
    expect(quiet.Deleted ?? []).toEqual([]);
    expect(quiet.Errors ?? []).toEqual([]);
    const left = await server.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    expect((left.Contents ?? []).map((object) => object.Key)).toEqual(['public/terms.pdf']);
  });

  it('refuses a list without an integrity check, or with one that does not match, and deletes nothing', async () => {
    await storage.client().send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/kept.pdf', Body: testBytes(10) }));
    const body = '<Delete><Object><Key>public/kept.pdf</Key></Object></Delete>';
    const unchecked = await signedFetch(storage.endpoint, 'POST', `/${BUCKET}?delete`, { body });
    expect(unchecked.status).toBe(400);
    expect(await unchecked.text()).toContain('<Code>InvalidRequest</Code>');
    const wrong = await signedFetch(storage.endpoint, 'POST', `/${BUCKET}?delete`, { body, headers: { 'content-md5': '1B2M2Y8AsgTpgAmY7PhCfg==' } });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('<Code>BadDigest</Code>');
    const left = await storage.client().send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/kept' }));
    expect(left.KeyCount).toBe(1);
  });
});
