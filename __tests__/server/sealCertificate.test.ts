// The seal certificate: the bank's PKCS#12 file when configured, else the sandbox seal made once in DATA_DIR.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { loadSealCredentials, makeSandboxSeal, SANDBOX_SEAL_FILE } from '../../server/services/sealCertificate';

describe('the seal certificate', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-seal-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const secret = Buffer.alloc(32, 9);

  it('makes one sandbox seal when two servers start at once on the same DATA_DIR, and keeps it', async () => {
    const now = new Date('2026-03-02T10:00:00Z');
    const [first, second] = await Promise.all([loadSealCredentials({ dataDir, secret }, now), loadSealCredentials({ dataDir, secret }, now)]);
    expect(second.certificatePem).toBe(first.certificatePem);
    expect(readdirSync(dataDir)).toEqual([SANDBOX_SEAL_FILE]);
    expect((await loadSealCredentials({ dataDir, secret }, now)).certificatePem).toBe(first.certificatePem);

    const certificate = forge.pki.certificateFromPem(first.certificatePem);
    expect(certificate.subject.getField('CN').value).toBe('Divilo Sandbox Seal');
    expect((certificate.publicKey as forge.pki.rsa.PublicKey).n.bitLength()).toBe(2048);
    expect(certificate.validity.notAfter.toISOString()).toBe('2036-03-02T00:00:00.000Z');
    expect(certificate.verify(certificate)).toBe(true);
    // The file opens only with the passphrase derived from this server's secret.
    await expect(loadSealCredentials({ dataDir, secret: Buffer.alloc(32, 8) }, now)).rejects.toThrow('cannot be opened with its passphrase');
  });

  it("uses the bank's file with its passphrase, and never repeats the passphrase when it is wrong", async () => {
    const file = path.join(dataDir, 'bank-seal.p12');
    const now = new Date();
    writeFileSync(file, await makeSandboxSeal('correct horse', now));
    expect((await loadSealCredentials({ p12File: file, passphrase: 'correct horse', dataDir, secret }, now)).passphrase).toBe('correct horse');
    const refused = await loadSealCredentials({ p12File: file, passphrase: 'wrong battery', dataDir, secret }, now).catch((error: Error) => error.message);
    expect(refused).toBe('The seal certificate in SEAL_P12_FILE cannot be opened with its passphrase');
    expect(readdirSync(dataDir)).toEqual(['bank-seal.p12']);
  });
});
