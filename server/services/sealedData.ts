import { constants, createDecipheriv, privateDecrypt, type KeyObject } from 'node:crypto';

/** What the browser sends (see src/features/recovery/sealForServer.ts): JSON, base64. */
interface SealedEnvelope {
  keyId: string;
  /** The AES-256 key, wrapped with RSA-OAEP (SHA-256). */
  key: string;
  iv: string;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  data: string;
}

export class SealedDataError extends Error {
  constructor(readonly code: 'SEALED_DATA_MALFORMED' | 'SEALED_DATA_UNKNOWN_KEY' | 'SEALED_DATA_UNREADABLE') {
    super(code);
  }
}

const MAX_SEALED_LENGTH = 8192;

/** Opens data sealed in the browser with one of the server's recovery keys; any failure is a SealedDataError. */
export async function unseal(sealed: unknown, privateKeyFor: (keyId: string) => Promise<KeyObject | undefined>): Promise<unknown> {
  if (typeof sealed !== 'string' || sealed.length === 0 || sealed.length > MAX_SEALED_LENGTH) {
    throw new SealedDataError('SEALED_DATA_MALFORMED');
  }
  let envelope: SealedEnvelope;
  try {
    envelope = JSON.parse(Buffer.from(sealed, 'base64').toString('utf8')) as SealedEnvelope;
  } catch {
    throw new SealedDataError('SEALED_DATA_MALFORMED');
  }
  if (![envelope?.keyId, envelope?.key, envelope?.iv, envelope?.data].every((part) => typeof part === 'string')) {
    throw new SealedDataError('SEALED_DATA_MALFORMED');
  }
  const privateKey = await privateKeyFor(envelope.keyId);
  if (!privateKey) throw new SealedDataError('SEALED_DATA_UNKNOWN_KEY');
  try {
    const aesKey = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(envelope.key, 'base64'),
    );
    const body = Buffer.from(envelope.data, 'base64');
    if (aesKey.length !== 32 || body.length < 17) throw new Error('short');
    const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(envelope.iv, 'base64'));
    decipher.setAuthTag(body.subarray(body.length - 16));
    const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    throw new SealedDataError('SEALED_DATA_UNREADABLE');
  }
}
