import { createCipheriv, createDecipheriv, createPrivateKey, generateKeyPair, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { toDbTime } from '../db/values';
import type { SealingKeyRepository } from '../repositories/sealingKeyRepository';

const generate = promisify(generateKeyPair);

interface SealingKeySettings {
  /** Seals the private halves at rest (AES-256-GCM). */
  storageKey: Buffer;
  /** A new key pair takes over after this long. */
  rotateSeconds: number;
  /** An old key still opens data this long after its successor took over (a form left open). */
  graceSeconds: number;
}

/**
 * The RSA keys the browser seals recovery data with (`GET credentials-management/getKey`): rotated,
 * the private halves kept server-side only, sealed at rest.
 */
export function sealingKeys(keys: SealingKeyRepository, settings: SealingKeySettings) {
  const cache = new Map<string, KeyObject>();

  const sealPrivate = (pem: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', settings.storageKey, iv);
    const body = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  };
  const openPrivate = (sealed: string) => {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', settings.storageKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return createPrivateKey(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'));
  };

  interface PublicKeyInfo {
    keyId: string;
    publicKey: string;
    expiresAt: string;
  }

  const make = async (now: Date): Promise<PublicKeyInfo> => {
    const { publicKey, privateKey } = await generate('rsa', { modulusLength: 3072 });
    const keyId = randomUUID();
    const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const expiresAt = toDbTime(new Date(now.getTime() + (settings.rotateSeconds + settings.graceSeconds) * 1000));
    await keys.add({ keyId, publicKey: spki, privateKeySealed: sealPrivate(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), expiresAt }, now);
    cache.set(keyId, privateKey);
    return { keyId, publicKey: spki, expiresAt };
  };
  // A key pair takes a CPU-second or so to make: requests that find no live key at the same time (the first
  // start, each rotation) share one. `made` answers those whose look-up was already under way when it was stored.
  let making: Promise<PublicKeyInfo> | undefined;
  let made: PublicKeyInfo | undefined;

  return {
    /** The key browsers should use now: made on first use and whenever the current one is due for rotation. */
    async current(now: Date): Promise<{ keyId: string; publicKey: string }> {
      const rotateAt = new Date(now.getTime() + settings.graceSeconds * 1000);
      const rotateBefore = toDbTime(rotateAt);
      const live = await keys.newestValidAfter(rotateAt);
      if (live) return live;
      if (made && made.expiresAt > rotateBefore) return { keyId: made.keyId, publicKey: made.publicKey };
      making ??= make(now)
        .then((key) => (made = key))
        .finally(() => (making = undefined));
      const { keyId, publicKey } = await making;
      return { keyId, publicKey };
    },

    /** The private key for a key id, while it is still valid. */
    async privateKey(keyId: string, now: Date): Promise<KeyObject | undefined> {
      const sealed = await keys.sealedPrivateKey(keyId, now);
      if (sealed === undefined) return undefined;
      let key = cache.get(keyId);
      if (!key) {
        key = openPrivate(sealed);
        cache.set(keyId, key);
      }
      return key;
    },
  };
}

export type SealingKeys = ReturnType<typeof sealingKeys>;
