// Applicants' documents: the storage identity an applicant uploads under, and the check of each document the
// applicant reports. The same AWS SDK calls against Amazon Cognito + S3 and against the embedded endpoints.
import { createHash } from 'node:crypto';
import { CognitoIdentityClient, DeleteIdentitiesCommand, GetOpenIdTokenForDeveloperIdentityCommand, LookupDeveloperIdentityCommand } from '@aws-sdk/client-cognito-identity';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, PutObjectRetentionCommand, S3Client } from '@aws-sdk/client-s3';
import { documentFormatOf, documentMaxBytes, DOCUMENT_KINDS, type DocumentKind } from '../../src/validation/documentLimits';
import { STORAGE_AREAS } from '../awsPermissions';
import type { ImageFormat } from './imageHeaders';
import { IMAGE_LIMITS, inspectImage } from './imageInspection';
import { awsClient } from './outboundCalls';
import { inspectPdf } from './pdfInspection';

/**
 * The documents the wizard asks for (seed §3): modelo 036, deeds, articles of association, modelo 200 (PDFs),
 * and the identity check's photos (JPEG or PNG); declared with their size caps, shared with the browser.
 */
export { DOCUMENT_KINDS, type DocumentKind };

/** The content types a photo may have, and the format its bytes must then be. */
const IMAGE_TYPES: Record<string, ImageFormat> = { 'image/jpeg': 'jpeg', 'image/png': 'png' };
/** Each side of a photo, in pixels: enough to read an ID document, no more than a camera makes. */
export const IMAGE_SIDE_PIXELS = { min: IMAGE_LIMITS.minSide, max: IMAGE_LIMITS.maxSide } as const;

const isImageKind = (kind: DocumentKind) => documentFormatOf(kind) === 'image';

/** The name of a document inside the applicant's area: plain path segments, never `.` or `..`. */
export const DOCUMENT_NAME_PATTERN = "^(?!(?:.*/)?\\.{1,2}(?:/|$))[A-Za-z0-9!_.*'() -]+(?:/[A-Za-z0-9!_.*'() -]+)*$";

export type DocumentErrorCode =
  | 'DOCUMENT_NOT_OWN'
  | 'DOCUMENT_NOT_FOUND'
  | 'DOCUMENT_EMPTY'
  | 'DOCUMENT_TOO_LARGE'
  | 'DOCUMENT_NOT_PDF'
  | 'DOCUMENT_NOT_IMAGE'
  | 'DOCUMENT_NOT_DECODABLE'
  | 'DOCUMENT_ACTIVE_CONTENT'
  | 'DOCUMENT_ENCRYPTED'
  | 'IMAGE_TOO_SMALL'
  | 'IMAGE_TOO_LARGE'
  | 'IMAGE_BLANK'
  | 'IMAGE_UNIFORM'
  | 'DOCUMENT_CHANGED';

export class DocumentError extends Error {
  constructor(
    readonly code: DocumentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DocumentError';
  }
}

interface StorageIdentity {
  identityId: string;
  /** The identity pool's OpenID token for that identity (send as `Logins: { 'cognito-identity.amazonaws.com': token }`). */
  token: string;
  expiresIn: number;
}

/** A checked document's copy in the server's own area, and the SHA-256 of the bytes copied. */
interface Evidence {
  evidenceKey: string;
  sha256: string;
  size: number;
}

/**
 * The server's own area of the bucket: the applicants' storage credentials reach only `private/<identityId>/`
 * (the identity pool's role, deploy/lib/identity.ts; server/embedded/s3/access.ts), so nothing under it can be
 * written or deleted by an applicant. On AWS the server's own role may only create there (awsPermissions.ts).
 */
const EVIDENCE_PREFIX = STORAGE_AREAS.evidence;

/** Where the evidence of an application's document of `kind` is kept: named by its hash, so a copy never replaces another. */
const evidenceKeyOf = (applicationId: string, kind: string, sha256: string) => `${EVIDENCE_PREFIX}${applicationId}/${kind}/${sha256}`;

/** Times a copy is written again after S3 answered that a conflicting request (a delete) ran at the same time. */
const EVIDENCE_WRITE_ATTEMPTS = 3;

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface CheckedDocument {
  key: string;
  size: number;
  etag: string;
}

type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

interface DocumentServiceOptions {
  identity: { region: string; endpoint?: string; identityPoolId: string; developerProvider: string; credentials?: Credentials };
  storage: { region: string; endpoint?: string; bucket: string; maxDocumentBytes: number; credentials?: Credentials };
  /** Life of the OpenID token handed to the browser (default 900 s). */
  tokenSeconds?: number;
}

const errorName = (error: unknown) => (error as { name?: string } | undefined)?.name;

export function createDocumentService(options: DocumentServiceOptions) {
  const { identity, storage } = options;
  const tokenSeconds = options.tokenSeconds ?? 900;
  const cognito = awsClient(CognitoIdentityClient, { region: identity.region, endpoint: identity.endpoint, credentials: identity.credentials });
  const s3 = awsClient(S3Client, {
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: true,
    credentials: storage.credentials,
    // As the browser's client is configured (docs/storage.md, Checksums).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  /** The applicant's own storage identity (created on first use, then always the same) and a token for it. */
  async function storageIdentity(applicationId: string): Promise<StorageIdentity> {
    const answer = await cognito.send(
      new GetOpenIdTokenForDeveloperIdentityCommand({
        IdentityPoolId: identity.identityPoolId,
        Logins: { [identity.developerProvider]: applicationId },
        TokenDuration: tokenSeconds,
      }),
    );
    if (!answer.IdentityId || !answer.Token) throw new Error('the identity pool answered no identity');
    return { identityId: answer.IdentityId, token: answer.Token, expiresIn: tokenSeconds };
  }

  /** The applicant's storage identity if one was given out, read without creating one or issuing a token. */
  async function identityOf(applicationId: string): Promise<string | undefined> {
    try {
      const answer = await cognito.send(
        new LookupDeveloperIdentityCommand({ IdentityPoolId: identity.identityPoolId, DeveloperUserIdentifier: applicationId, MaxResults: 1 }),
      );
      return answer.IdentityId;
    } catch (error) {
      if (errorName(error) === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  }

  /**
   * Checks that `key` is a stored document of the applicant's own, within the size limit, and of its kind's
   * format: a PDF that parses, with pages and no active content, or for a photo a JPEG or PNG that decodes
   * whole, of a sensible size in pixels, neither blank nor featureless.
   */
  async function check(applicationId: string, key: string, kind: DocumentKind): Promise<CheckedDocument> {
    // The applicant's private area, `private/<identityId>/`: documents are never public nor protected.
    const identityId = await identityOf(applicationId);
    if (identityId === undefined || !key.startsWith(`private/${identityId}/`)) {
      throw new DocumentError('DOCUMENT_NOT_OWN', "The document is not in the applicant's own storage area");
    }
    let head;
    try {
      head = await s3.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }));
    } catch (error) {
      if (errorName(error) === 'NotFound' || errorName(error) === 'NoSuchKey') throw new DocumentError('DOCUMENT_NOT_FOUND', 'No document was uploaded under this key');
      throw error;
    }
    const size = head.ContentLength ?? 0;
    if (size === 0) throw new DocumentError('DOCUMENT_EMPTY', 'The document is empty');
    const maxBytes = documentMaxBytes(kind, storage.maxDocumentBytes);
    if (size > maxBytes) throw new DocumentError('DOCUMENT_TOO_LARGE', `The document is larger than ${maxBytes} bytes`);
    const type = (head.ContentType ?? '').split(';')[0].trim().toLowerCase();
    await (isImageKind(kind) ? checkImage(key, type, head.ETag) : checkPdf(key, type, head.ETag));
    return { key, size, etag: head.ETag ?? '' };
  }

  /** The bytes of `range` (all of them without one) of the object at `etag`: IfMatch, so what is read is what was checked. */
  async function read(key: string, etag: string | undefined, range?: string): Promise<Buffer> {
    const object = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key, Range: range, IfMatch: etag }));
    return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
  }

  async function checkPdf(key: string, type: string, etag: string | undefined): Promise<void> {
    if (type !== 'application/pdf') throw new DocumentError('DOCUMENT_NOT_PDF', 'The document is not a PDF');
    // The whole file (within the size limit) is parsed: pdfInspection.ts.
    const inspection = await inspectPdf(await read(key, etag));
    if (!inspection.ok) throw new DocumentError(inspection.code, inspection.message);
  }

  async function checkImage(key: string, type: string, etag: string | undefined): Promise<void> {
    const format = IMAGE_TYPES[type];
    if (format === undefined) throw new DocumentError('DOCUMENT_NOT_IMAGE', 'The document is not a JPEG or PNG image');
    // The whole file (within the size limit) is read, then decoded if its header allows: imageInspection.ts.
    const inspection = await inspectImage(await read(key, etag), format);
    if (!inspection.ok) throw new DocumentError(inspection.code, inspection.message);
  }

  /**
   * Removes everything stored under `prefix` (an application's evidence, an applicant's area), page by page; answers
   * the keys removed. One DeleteObject per key, so that each is allowed or refused on its own (IAM and Object Lock
   * decide per object). On the versioned bucket a delete leaves the version before it, which the bucket's lifecycle
   * removes (docs/storage.md, "Versions and Object Lock").
   */
  async function removeArea(prefix: string): Promise<string[]> {
    if (!/^(private|evidence)\/[^/]+\/$/.test(prefix)) throw new Error(`not one application's or applicant's area: ${prefix}`);
    const removed: string[] = [];
    for await (const Key of keysUnder(prefix)) {
      await s3.send(new DeleteObjectCommand({ Bucket: storage.bucket, Key }));
      removed.push(Key);
    }
    return removed;
  }

  /** Every key under `prefix`, page by page. */
  async function* keysUnder(prefix: string): AsyncGenerator<string> {
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: prefix, ContinuationToken: token }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      for (const { Key } of page.Contents ?? []) yield Key!;
    } while (token);
  }

  /**
   * Locks every evidence copy of the application until `until` (Object Lock, COMPLIANCE: nobody can shorten it or
   * remove the copy before; a later date moves it on). Answers how many copies it locked.
   */
  async function retainEvidence(applicationId: string, until: Date): Promise<number> {
    let locked = 0;
    for await (const Key of keysUnder(`${EVIDENCE_PREFIX}${applicationId}/`)) {
      await s3.send(new PutObjectRetentionCommand({ Bucket: storage.bucket, Key, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: until } }));
      locked += 1;
    }
    return locked;
  }

  /** Forgets the applicant's storage identity (erasure): the identity pool keeps nothing that names them. */
  async function forgetIdentity(identityId: string): Promise<void> {
    const answer = await cognito.send(new DeleteIdentitiesCommand({ IdentityIdsToDelete: [identityId] }));
    const unprocessed = answer.UnprocessedIdentityIds ?? [];
    if (unprocessed.length > 0) throw new Error(`the identity pool did not delete the identity: ${unprocessed.map((entry) => entry.ErrorCode).join(', ')}`);
  }

  /** Removes a stored document (a replaced or refused one). Missing is fine. */
  async function remove(key: string): Promise<void> {
    await s3.send(new DeleteObjectCommand({ Bucket: storage.bucket, Key: key }));
  }

  /**
   * Copies a checked document into the server's own area: read at the ETag it was checked at (so the copy is
   * what the check saw, and a file the applicant replaced in storage since is refused as DOCUMENT_CHANGED),
   * hashed, then written. A GET and a PUT rather than CopyObject: the server needs the bytes to hash them anyway.
   */
  async function preserve(applicationId: string, kind: string, key: string, etag: string): Promise<Evidence> {
    let object;
    try {
      object = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key, IfMatch: etag }));
    } catch (error) {
      if (['NoSuchKey', 'NotFound', 'PreconditionFailed'].includes(errorName(error) ?? '')) {
        throw new DocumentError('DOCUMENT_CHANGED', 'The document changed in storage after it was checked: upload it again');
      }
      throw error;
    }
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    const sha256 = sha256Of(bytes);
    const evidenceKey = evidenceKeyOf(applicationId, kind, sha256);
    await createEvidence(evidenceKey, bytes, sha256, object.ContentType);
    return { evidenceKey, sha256, size: bytes.length };
  }

  /**
   * Writes the copy only where nothing is yet (`If-None-Match: *`: on AWS the server's role may not do otherwise).
   * A copy already at the key (the same bytes frozen again, or at the same moment by another request) is kept when
   * it hashes to what its name says, and refused otherwise: evidence is never replaced.
   */
  async function createEvidence(evidenceKey: string, bytes: Buffer, sha256: string, contentType: string | undefined): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: evidenceKey, Body: bytes, ContentType: contentType, IfNoneMatch: '*' }));
        return;
      } catch (error) {
        if (errorName(error) === 'PreconditionFailed') {
          await readEvidence(evidenceKey, sha256);
          return;
        }
        // S3 answers 409 when a delete of the key ran during the write; it asks for the write again.
        if (errorName(error) !== 'ConditionalRequestConflict' || attempt === EVIDENCE_WRITE_ATTEMPTS) throw error;
      }
    }
  }

  /** The SHA-256 of what is stored at `key` now; undefined when nothing is. */
  async function digest(key: string): Promise<string | undefined> {
    try {
      const object = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
      return sha256Of((await object.Body?.transformToByteArray()) ?? new Uint8Array());
    } catch (error) {
      if (errorName(error) === 'NoSuchKey' || errorName(error) === 'NotFound') return undefined;
      throw error;
    }
  }

  /** The bytes of an evidence copy, refused unless they still hash to what was recorded. */
  async function readEvidence(evidenceKey: string, sha256: string): Promise<Buffer> {
    const object = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: evidenceKey }));
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    if (sha256Of(bytes) !== sha256) throw new Error(`the evidence at ${evidenceKey} does not match its recorded SHA-256`);
    return bytes;
  }

  return {
    storageIdentity,
    identityOf,
    forgetIdentity,
    removeArea,
    retainEvidence,
    preserve,
    digest,
    readEvidence,
    check,
    /** The whole of a stored document, as it was when checked (its ETag). */
    read: (key: string, etag: string) => read(key, etag),
    remove,
    /** The storage client (the server's credentials) and the documents bucket, for the housekeeping sweep. */
    storage: { client: s3, bucket: storage.bucket },
    maxDocumentBytes: storage.maxDocumentBytes,
    /** The largest file of `kind` this deployment accepts. */
    maxBytesOf: (kind: DocumentKind) => documentMaxBytes(kind, storage.maxDocumentBytes),
    close() {
      cognito.destroy();
      s3.destroy();
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
