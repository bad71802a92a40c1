// How much an applicant may store: the size of each document by its kind and the total of one application.
// The browser refuses a file over its cap before sending it, the server when the document is reported, and the
// embedded storage endpoint before it reads an upload's body (docs/storage.md, "Quotas").
import { IDENTITY_IMAGE_KINDS } from './onboarding';

const MIB = 1024 * 1024;

/** The PDFs the wizard asks for, then the identity check's photos. */
export const DOCUMENT_KINDS = ['model036', 'companyDeeds', 'articlesOfIncorporation', 'model200', ...IDENTITY_IMAGE_KINDS] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
type DocumentFormat = 'pdf' | 'image';

export const isDocumentKind = (value: string): value is DocumentKind => (DOCUMENT_KINDS as readonly string[]).includes(value);
export const documentFormatOf = (kind: DocumentKind): DocumentFormat => ((IDENTITY_IMAGE_KINDS as readonly string[]).includes(kind) ? 'image' : 'pdf');

/**
 * The largest file of each format, as the product has always stated it (`DOCUMENT_MAX_BYTES`, 20 MiB): a scanned
 * deed of many pages, or a 50-megapixel phone photo, fits.
 */
export const DOCUMENT_FORMAT_MAX_BYTES: Record<DocumentFormat, number> = { pdf: 20 * MIB, image: 20 * MIB };

/**
 * All the files of one application's storage area together: the seven documents at their usual sizes (photos of
 * 2 to 8 MiB, PDFs of a few MiB) and one replacement at the largest size in flight, and nothing like the hundreds of
 * MiB a misused upload credential could store.
 */
export const APPLICATION_STORAGE_MAX_BYTES = 64 * MIB;

/** The largest file of `kind`; `configuredMax` (the deployment's DOCUMENT_MAX_BYTES) may only lower it. */
export function documentMaxBytes(kind: DocumentKind, configuredMax?: number): number {
  const cap = DOCUMENT_FORMAT_MAX_BYTES[documentFormatOf(kind)];
  return configuredMax === undefined ? cap : Math.min(cap, configuredMax);
}

/** The largest file of any kind. */
export const LARGEST_DOCUMENT_BYTES = Math.max(...Object.values(DOCUMENT_FORMAT_MAX_BYTES));
