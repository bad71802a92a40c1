// Divilo's electronic seal on a signed contract: a PAdES signature (ETSI.CAdES.detached) over the whole file,
// which any PDF reader checks, made with the seal certificate (sealCertificate.ts).
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import signpdf from '@signpdf/signpdf';
import { PDFDocument } from 'pdf-lib';
import { loadSealCredentials, type SealCredentials, type SealSettings } from './sealCertificate';

/** The PAdES baseline's signature format: a detached CAdES (CMS) signature. */
export const PADES_SUBFILTER = 'ETSI.CAdES.detached';

export interface SealDetails {
  /** The moment of sealing: the signature dictionary's /M and the CMS signing time. */
  signingTime: Date;
  reason: string;
  location: string;
  contactInfo: string;
}

/** Seals PDFs; the certificate is read (or, on the embedded defaults, made) on the first seal. */
export function pdfSeal(settings: SealSettings) {
  let credentials: Promise<SealCredentials> | undefined;
  const ready = () => {
    credentials ??= loadSealCredentials(settings).catch((error: unknown) => {
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
      const { p12, passphrase } = await ready();
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
      return signpdf.sign(prepared, new P12Signer(p12, { passphrase }), details.signingTime);
    },
  };
}

export type PdfSeal = ReturnType<typeof pdfSeal>;
