import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { BATCH_BYTES, BodyHashing, type DigestName, type HashJob } from '../../../../server/embedded/s3/hashing';

/** Feeds `body` to a job in batches lent by the pool, as receiveFile does, and answers its digests. */
async function hashInBatches(hashing: BodyHashing, job: HashJob, body: Buffer) {
  for (let at = 0; at < body.length; at += BATCH_BYTES) {
    const batch = hashing.acquire();
    const length = body.copy(batch, 0, at, Math.min(at + BATCH_BYTES, body.length));
    await job.update(batch, length);
    hashing.release(batch);
  }
  return job.digest();
}

const expected = (body: Buffer) => ({
  md5: createHash('md5').update(body).digest(),
  sha256: createHash('sha256').update(body).digest(),
  crc32: crc32(body),
});

describe.each([0, 1, 2])('body hashing on %i thread(s)', (threads) => {
  let hashing: BodyHashing;
  beforeEach(() => {
    hashing = new BodyHashing(threads);
  });
  afterEach(async () => {
    await hashing.close();
  });

  it('gives the digests of bodies fed in batches, with more bodies at once than threads', async () => {
    // Empty, under one batch, exactly one, and several with a partial last one.
    const bodies = [0, 1000, BATCH_BYTES, 3 * BATCH_BYTES + 12345, 2 * BATCH_BYTES - 1].map((size) => randomBytes(size));
    const all: DigestName[] = ['md5', 'sha256', 'crc32'];
    const digests = await Promise.all(bodies.map((body) => hashInBatches(hashing, hashing.start(all), body)));
    digests.forEach((digest, index) => expect(digest).toEqual(expected(bodies[index])));
  });

  it('computes only the digests named', async () => {
    const body = randomBytes(BATCH_BYTES + 7);
    const md5Only = await hashInBatches(hashing, hashing.start(['md5']), body);
    expect(md5Only).toEqual({ md5: expected(body).md5, sha256: undefined, crc32: undefined });
    const checksums = await hashInBatches(hashing, hashing.start(['md5', 'crc32']), body);
    expect(checksums).toEqual({ md5: expected(body).md5, sha256: undefined, crc32: expected(body).crc32 });
  });

  it('drops a cancelled body and goes on with the others', async () => {
    const cancelled = hashing.start(['md5']);
    const batch = hashing.acquire();
    batch.fill(1);
    await cancelled.update(batch, 10);
    cancelled.cancel();
    await expect(cancelled.digest()).rejects.toThrow();
    const body = randomBytes(2 * BATCH_BYTES + 1);
    expect((await hashInBatches(hashing, hashing.start(['md5']), body)).md5).toEqual(expected(body).md5);
  });
});

describe('body hashing threads', () => {
  it('fails the bodies in progress when the threads stop, never leaves them waiting, and hashes later ones on the caller', async () => {
    const hashing = new BodyHashing(1);
    const job = hashing.start(['md5', 'sha256']);
    const batch = hashing.acquire();
    await job.update(batch, BATCH_BYTES);
    await hashing.close();
    await expect(job.digest()).rejects.toThrow();
    // A closed pool still answers (on the calling thread), so a request racing the app's close gets its digests.
    const body = randomBytes(1000);
    expect(await hashInBatches(hashing, hashing.start(['md5', 'sha256', 'crc32']), body)).toEqual(expected(body));
  });
});
