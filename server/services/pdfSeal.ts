// Divilo's electronic seal on a signed contract: a PAdES signature (ETSI.CAdES.detached) over the whole file,
// which any PDF reader checks, made with the seal certificate (sealCertificate.ts).
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import signpdf from '@signpdf/signpdf';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';
import { loadSealCredentials, type SealCredentials, type SealSettings } from './sealCertificate';

/** The PAdES baseline's signature format: a detached CAdES (CMS) signature. */
const PADES_SUBFILTER = 'ETSI.CAdES.detached';

interface SealDetails {
  /** The moment of sealing: the signature dictionary's /M and the CMS signing time. */
  signingTime: Date;
  reason: string;
  location: string;
  contactInfo: string;
}

/**
 * P12Signer's signature (a detached PKCS#7 with SHA-256 and the authenticated attributes in the order EU
 * validators expect), with the PKCS#12 file opened once, by loadSealCredentials, instead of at every seal: opening
 * it runs two key derivations in node-forge's pure JavaScript, most of a seal's CPU.
 */
class SealSigner extends P12Signer {
  private readonly opened: SealCredentials['opened'];

  constructor({ p12, passphrase, opened }: SealCredentials) {
    super(p12, { passphrase });
    this.opened = opened;
  }

  override async sign(pdf: Buffer, signingTime?: Date): Promise<Buffer> {
    const { key, certificates, certificate } = this.opened;
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdf.toString('binary'));
    for (const cert of certificates) p7.addCertificate(cert);
    p7.addSigner({
      key,
      certificate,
      digestAlgorithm: forge.pki.oids.sha256,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType, value: forge.pki.oids.data },
        // forge types the value as a string, and writes a Date as the UTCTime it stands for. The fallback only
        // satisfies signpdf's Signer, whose time is optional: `seal` always passes the server's.
        { type: forge.pki.oids.signingTime, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }
}

/** Seals PDFs; the certificate is read (or, on the embedded defaults, made) on the first seal. */
export function pdfSeal(settings: SealSettings, clock: () => Date) {
  let credentials: Promise<SealCredentials & { signer: SealSigner }> | undefined;
  const ready = () => {
    credentials ??= loadSealCredentials(settings, clock()).then((loaded) => ({ ...loaded, signer: new SealSigner(loaded) })).catch((error: unknown) => {
      // A failure is not kept: the next seal tries again (a file being replaced, a disk briefly full).
      credentials = undefined;
      throw error;
    });
    return credentials;
  };

  return {
    /** The sealing certificate (PEM). */
    certificatePem: async () => (await ready()).certificatePem,

    /** `pdf` with an invisible signature field on its last page, signed over every byte but the signature itself. */
    async seal(pdf: Uint8Array, details: SealDetails): Promise<Buffer> {
      const { signer } = await ready();
      const doc = await PDFDocument.load(pdf, { updateMetadata: false });
      pdflibAddPlaceholder({
        pdfDoc: doc,
        pdfPage: doc.getPage(doc.getPageCount() - 1),
        name: 'Divilo',
        reason: details.reason,
        location: details.location,
        contactInfo: details.contactInfo,
        signingTime: details.signingTime,
        subFilter: PADES_SUBFILTER,
        appName: 'Divilo',
      });
      const prepared = Buffer.from(await doc.save({ useObjectStreams: false }));
      return signpdf.sign(prepared, signer, details.signingTime);
    },
  };
}

export type PdfSeal = ReturnType<typeof pdfSeal>;
