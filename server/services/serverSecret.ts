import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The server's root secret: `SERVER_SECRET` (base64, at least 32 bytes) in production; on the embedded
 * defaults a random one made on first start and kept in `DATA_DIR/server-secret` (owner-only), so codes,
 * sealed keys and sessions survive restarts. Every other key is derived from it per purpose.
 */
export function loadServerSecret(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv) {
    const secret = Buffer.from(fromEnv, 'base64');
    if (secret.length < 32) throw new Error('SERVER_SECRET must be at least 32 bytes, base64');
    return secret;
  }
  const file = path.join(dataDir, 'server-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

export function deriveKey(secret: Buffer, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`divilo:${purpose}`).digest();
}

/** AWS-shaped long-term credentials derived from the server secret, for the server's calls to an embedded service. */
export function deriveAccessKey(secret: Buffer, purpose: string): { accessKeyId: string; secretAccessKey: string } {
  const key = deriveKey(secret, purpose);
  return { accessKeyId: `AKIA${key.subarray(0, 8).toString('hex').toUpperCase()}`, secretAccessKey: key.toString('base64') };
}
