// The certificate Divilo seals signed contracts with, as a PKCS#12 file: the bank's own (SEAL_P12_FILE and
// SEAL_P12_PASSPHRASE) in production; on the embedded defaults a self-signed "Divilo Sandbox Seal" made on
// first use and kept in DATA_DIR/seal.p12, protected by a passphrase derived from the server secret.
import { generateKeyPair, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';
import { deriveKey } from './serverSecret';

const generate = promisify(generateKeyPair);

const SANDBOX_SEAL_NAME = 'Divilo Sandbox Seal';
export const SANDBOX_SEAL_FILE = 'seal.p12';
const SANDBOX_YEARS = 10;

export interface SealSettings {
  /** The bank's PKCS#12 file; unset means the sandbox seal in `dataDir`. */
  p12File?: string;
  passphrase?: string;
  dataDir: string;
  /** The server's root secret: the sandbox seal's passphrase derives from it. */
  secret: Buffer;
}

export interface SealCredentials {
  p12: Buffer;
  passphrase: string;
  /** The sealing certificate, PEM (what a reader shows as the signer). */
  certificatePem: string;
  /** What the file holds, opened: its private key, every certificate in it and the key's own among them. */
  opened: { key: forge.pki.rsa.PrivateKey; certificates: forge.pki.Certificate[]; certificate: forge.pki.Certificate };
}

/**
 * Opens a PKCS#12 file and checks it holds a private key and its certificate; the error never repeats the passphrase.
 * Opening runs two key derivations in node-forge's pure JavaScript: the seal does it once.
 */
function open(p12: Buffer, passphrase: string, where: string): SealCredentials {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))), false, passphrase);
  } catch {
    throw new Error(`The seal certificate in ${where} cannot be opened with its passphrase`);
  }
  const key = parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag]?.[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  const certificates = (parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).map((bag) => bag.cert).filter((cert) => cert !== undefined);
  const certificate = certificates.find((cert) => key !== undefined && (cert.publicKey as forge.pki.rsa.PublicKey).n.equals(key.n));
  if (!key || !certificate) throw new Error(`The seal certificate in ${where} holds no private key with its certificate`);
  return { p12, passphrase, certificatePem: forge.pki.certificateToPem(certificate), opened: { key, certificates, certificate } };
}

/** A new self-signed sealing certificate (RSA 2048, SHA-256, ten years from `now`) as PKCS#12 bytes. */
export async function makeSandboxSeal(passphrase: string, now: Date): Promise<Buffer> {
  const { privateKey, publicKey } = await generate('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive serial number of 16 random bytes (RFC 5280: positive, at most 20 bytes).
  certificate.serialNumber = `01${randomBytes(15).toString('hex')}`;
  certificate.validity.notBefore = now;
  certificate.validity.notAfter = new Date(Date.UTC(now.getUTCFullYear() + SANDBOX_YEARS, now.getUTCMonth(), now.getUTCDate()));
  const name = [
    { name: 'commonName', value: SANDBOX_SEAL_NAME },
    { name: 'organizationName', value: 'Divilo' },
    { name: 'countryName', value: 'ES' },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [certificate], passphrase, { algorithm: 'aes256', friendlyName: SANDBOX_SEAL_NAME });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

/**
 * The seal's credentials. The sandbox seal is made once: written whole to a file of this process's own, then
 * linked into place only if no seal is there yet, and read back, so two servers starting at once on the same
 * DATA_DIR both end up with the one seal that won.
 */
export async function loadSealCredentials(settings: SealSettings, now: Date): Promise<SealCredentials> {
  if (settings.p12File) return open(readFileSync(settings.p12File), settings.passphrase ?? '', 'SEAL_P12_FILE');
  const file = path.join(settings.dataDir, SANDBOX_SEAL_FILE);
  const passphrase = deriveKey(settings.secret, 'sandbox-seal').toString('base64');
  if (!existsSync(file)) {
    mkdirSync(settings.dataDir, { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, await makeSandboxSeal(passphrase, now), { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  return open(readFileSync(file), passphrase, file);
}
