import { constants, createPublicKey, publicEncrypt, privateDecrypt } from 'node:crypto';
import { sealingKeyRepository } from '../../server/repositories/sealingKeyRepository';
import { sealingKeys } from '../../server/services/sealingKeys';
import { describeEachDialect, openTestDatabase } from './helpers';

const settings = { storageKey: Buffer.alloc(32, 7), rotateSeconds: 7 * 86_400, graceSeconds: 86_400 };
const start = new Date('2026-11-25T10:00:00.000Z');
const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);

/** Seals with the public key as a browser does, and opens with the private half the service keeps. */
async function roundTrip(keys: ReturnType<typeof sealingKeys>, key: { keyId: string; publicKey: string }, now: Date) {
  const publicKey = createPublicKey({ key: Buffer.from(key.publicKey, 'base64'), format: 'der', type: 'spki' });
  const sealed = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('Secret-2026'));
  const privateKey = await keys.privateKey(key.keyId, now);
  return privateKey && privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, sealed).toString();
}

describeEachDialect('recovery sealing keys', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('requests that find no key at the same moment share one new key pair, at first use and at rotation', async () => {
    const keys = sealingKeys(sealingKeyRepository(database.db), settings);
    const first = await Promise.all(Array.from({ length: 10 }, () => keys.current(start)));
    expect(new Set(first.map((key) => key.keyId)).size).toBe(1);
    expect(await database.db.selectFrom('sealing_keys').select('key_id').execute()).toEqual([{ key_id: first[0].keyId }]);
    expect(await roundTrip(keys, first[0], start)).toBe('Secret-2026');

    // Due for rotation: one successor for all, and the old key still opens what was sealed with it meanwhile.
    const rotation = later(settings.rotateSeconds + 1);
    const second = await Promise.all(Array.from({ length: 10 }, () => keys.current(rotation)));
    expect(new Set(second.map((key) => key.keyId)).size).toBe(1);
    expect(second[0].keyId).not.toBe(first[0].keyId);
    expect(await database.db.selectFrom('sealing_keys').select('key_id').execute()).toHaveLength(2);
    expect(await roundTrip(keys, first[0], rotation)).toBe('Secret-2026');
    expect(await roundTrip(keys, second[0], rotation)).toBe('Secret-2026');
  });
});
