// Multipart uploads: CreateMultipartUpload, UploadPart, CompleteMultipartUpload, AbortMultipartUpload, ListParts.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ownerOf, requireAccess, requireUploadOwner } from './access';
import { auditWrite } from './writeAudit';
import { queryValue, type S3Request, type StorageContext } from './context';
import { errors } from './errors';
import { linkIntoObjects, newObjectFiles, newPartFile, newUploadId, PartFileError, removeObjectFiles, removeQuietly, UPLOAD_ID, uploadDir } from './files';
import { checkEmptyPayload, contentTypeOf, createOnlyRequested, parseXmlBody, readSmallBody, receiveBody, refusalOf, sameEtag, storedHeaders } from './http';
import type { UploadRecord } from './repository';
import { element, textElement, xmlDocument } from './xml';

const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_BYTES = 5 * 1024 ** 3;
const MAX_PARTS = 10_000;
const MAX_COMPLETE_BODY_BYTES = 2 * 1024 * 1024;
const DEFAULT_MAX_PARTS_LISTED = 1000;

const uploadIdOf = (s3: S3Request): string => queryValue(s3.query, 'uploadId') ?? '';

/** The upload this request names, if the caller may use it: same bucket and key, and its creator. */
async function findUpload(context: StorageContext, s3: S3Request): Promise<UploadRecord> {
  requireAccess(s3.principal, s3.key, 'write');
  const uploadId = uploadIdOf(s3);
  const upload = UPLOAD_ID.test(uploadId) ? await context.repository.uploads.find(uploadId) : undefined;
  if (!upload || upload.bucket !== s3.bucket || upload.key !== s3.key) throw errors.noSuchUpload(uploadId);
  requireUploadOwner(s3.principal, upload.ownerIdentity);
  return upload;
}

const xmlReply = (s3: S3Request, root: string, body: string) => s3.reply.code(200).type('application/xml').send(xmlDocument(root, body));

export async function createMultipartUpload(context: StorageContext, s3: S3Request) {
  requireAccess(s3.principal, s3.key, 'write');
  checkEmptyPayload(s3);
  const uploadId = newUploadId();
  // The folder before the row: a crash in between leaves an empty folder for the sweep, never a row without one.
  const dir = uploadDir(context.layout, uploadId);
  await mkdir(dir);
  await context.repository.uploads
    .create({
      uploadId,
      bucket: s3.bucket,
      key: s3.key,
      ownerIdentity: ownerOf(s3.principal),
      contentType: contentTypeOf(s3.request.headers),
      headers: storedHeaders(s3.request.headers),
      createdAt: new Date(context.now()),
    })
    .catch(async (error: unknown) => {
      await removeQuietly(dir, true);
      throw error;
    });
  return xmlReply(s3, 'InitiateMultipartUploadResult', textElement('Bucket', s3.bucket) + textElement('Key', s3.key) + textElement('UploadId', uploadId));
}

function parsePartNumber(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PARTS) {
    throw errors.invalidArgument('Part number must be an integer between 1 and 10000, inclusive');
  }
  return Number(raw);
}

/** Stores the part; the caller answers with its ETag once the write is over (its quota reservation released). */
export async function uploadPart(context: StorageContext, s3: S3Request): Promise<{ etag: string }> {
  const partNumber = parsePartNumber(queryValue(s3.query, 'partNumber'));
  if (s3.request.headers['x-amz-copy-source'] !== undefined) throw errors.notImplemented('UploadPartCopy');
  const upload = await findUpload(context, s3);
  const dir = uploadDir(context.layout, upload.uploadId);
  // A fresh file per attempt: a part uploaded again never overwrites bytes a row still points at. Fsynced before
  // its row is written, as S3 keeps an acknowledged part.
  const file = newPartFile(partNumber);
  const target = path.join(dir, file);
  let written;
  try {
    written = await receiveBody(s3, target, { maxBytes: Math.min(MAX_PART_BYTES, context.settings.maxObjectBytes), sync: true, hashing: context.hashing });
  } catch (error) {
    // The folder went with an abort that raced this part.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw errors.noSuchUpload(upload.uploadId);
    throw error;
  }
  const etag = `"${written.md5.toString('hex')}"`;
  const recorded = await context.repository.uploads
    .recordPart({ uploadId: upload.uploadId, partNumber, size: written.size, etag, file, lastModified: new Date(context.now()) })
    .catch(async (error: unknown) => {
      // Not recorded (a full database, say): the bytes are no part of anything.
      await removeQuietly(target);
      throw error;
    });
  if (recorded === 'no-upload') {
    await removeQuietly(target);
    throw errors.noSuchUpload(upload.uploadId);
  }
  if (recorded.replacedFile) await removeQuietly(path.join(dir, recorded.replacedFile));
  return { etag };
}

/** The parts the client lists in CompleteMultipartUpload, in its order. */
function parseCompleteRequest(body: Buffer): { partNumber: number; etag: string }[] {
  const root = parseXmlBody(body, 'CompleteMultipartUpload');
  if (root.children.length === 0) throw errors.malformedXml();
  return root.children.map((part) => {
    if (part.name !== 'Part') throw errors.malformedXml();
    const number = part.children.find((child) => child.name === 'PartNumber')?.text.trim();
    const etag = part.children.find((child) => child.name === 'ETag')?.text.trim();
    if (number === undefined || etag === undefined || !/^\d{1,9}$/.test(number)) throw errors.malformedXml();
    return { partNumber: Number(number), etag };
  });
}

export async function completeMultipartUpload(context: StorageContext, s3: S3Request) {
  const upload = await findUpload(context, s3);
  const createOnly = createOnlyRequested(s3.request.headers) ? { existedAtStart: await context.repository.objects.exists(s3.bucket, s3.key) } : undefined;
  const requested = parseCompleteRequest(await readSmallBody(s3, MAX_COMPLETE_BODY_BYTES));
  for (let i = 1; i < requested.length; i += 1) {
    if (requested[i].partNumber <= requested[i - 1].partNumber) throw errors.invalidPartOrder();
  }
  const stored = new Map((await context.repository.uploads.parts(upload.uploadId)).map((part) => [part.partNumber, part]));
  const parts = requested.map(({ partNumber, etag }) => {
    const part = stored.get(partNumber);
    if (!part || !sameEtag(part.etag, etag)) throw errors.invalidPart(partNumber);
    return part;
  });
  parts.slice(0, -1).forEach((part) => {
    if (part.size < MIN_PART_BYTES) throw errors.entityTooSmall(part.partNumber);
  });
  const size = parts.reduce((total, part) => total + part.size, 0);
  // The parts were each checked against the quota as they arrived; the object they make is checked again here.
  const maxObjectBytes = Math.min(context.settings.maxObjectBytes, context.quotaOf?.(s3.key, s3.principal)?.maxObjectBytes ?? Infinity);
  if (size > maxObjectBytes) throw errors.entityTooLarge(maxObjectBytes);

  // The object is its parts' files, in order, never concatenated: each gets a second name under objects/ (a hard
  // link; the bytes were fsynced when the part arrived), the folder is fsynced, then one transaction makes the
  // object visible with its list of files and drops the upload. A crash before that commit leaves the upload
  // intact and completable again (the links are orphans for the sweep); after it, the whole new object.
  const dir = uploadDir(context.layout, upload.uploadId);
  const files = newObjectFiles(parts.length);
  try {
    await linkIntoObjects(
      context.layout,
      parts.map((part) => ({ path: path.join(dir, part.file), size: part.size })),
      files,
      new Date(context.now()),
    );
  } catch (error) {
    if (error instanceof PartFileError) throw errors.invalidPart(parts[error.index].partNumber);
    throw error;
  }
  const digest = createHash('md5');
  for (const part of parts) digest.update(Buffer.from(part.etag.replace(/"/g, ''), 'hex'));
  const etag = `"${digest.digest('hex')}-${parts.length}"`;
  let completed;
  try {
    completed = await context.repository.uploads.complete(upload.uploadId, {
      bucket: s3.bucket,
      key: s3.key,
      size,
      etag,
      contentType: upload.contentType,
      headers: upload.headers,
      segments: parts.map((part, index) => ({ file: files[index], size: part.size })),
      ownerIdentity: upload.ownerIdentity,
      lastModified: new Date(context.now()),
    }, createOnly);
  } catch (error) {
    // Not committed: the upload is as it was; only the new names go (the part files keep the bytes).
    await removeObjectFiles(context.layout, files);
    throw error;
  }
  if (completed === 'no-upload') {
    await removeObjectFiles(context.layout, files);
    throw errors.noSuchUpload(upload.uploadId);
  }
  if (completed === 'precondition-failed' || completed === 'conflict') {
    await removeObjectFiles(context.layout, files);
    // After a 409 S3 wants the upload started again: this one is gone. After a 412 it stays, to be aborted.
    if (completed === 'conflict' && (await context.repository.uploads.remove(upload.uploadId))) await removeQuietly(dir, true);
    throw refusalOf(completed);
  }
  // Committed: the parts' names go (their bytes stay under the objects/ names), then the replaced version's files.
  await removeQuietly(dir, true);
  await removeObjectFiles(context.layout, completed.replacedFiles);
  await auditWrite(context, s3, { operation: 'CompleteMultipartUpload', size, etag });

  const host = String(s3.request.headers.host ?? 'localhost');
  const location = `${s3.request.protocol}://${host}${context.settings.prefix}/${s3.bucket}/${s3.key.split('/').map(encodeURIComponent).join('/')}`;
  return xmlReply(
    s3,
    'CompleteMultipartUploadResult',
    textElement('Location', location) + textElement('Bucket', s3.bucket) + textElement('Key', s3.key) + textElement('ETag', etag),
  );
}

export async function abortMultipartUpload(context: StorageContext, s3: S3Request) {
  checkEmptyPayload(s3);
  const upload = await findUpload(context, s3);
  if (!(await context.repository.uploads.remove(upload.uploadId))) throw errors.noSuchUpload(upload.uploadId);
  // Rows first: a part arriving now is refused by the database, and its file goes with the folder or the sweep.
  await removeQuietly(uploadDir(context.layout, upload.uploadId), true);
  return s3.reply.code(204).send();
}

function parseCount(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw errors.invalidArgument(`${name} must be a whole number`);
  return Number(raw);
}

export async function listParts(context: StorageContext, s3: S3Request) {
  checkEmptyPayload(s3);
  const upload = await findUpload(context, s3);
  const maxParts = Math.min(parseCount(queryValue(s3.query, 'max-parts'), 'max-parts', DEFAULT_MAX_PARTS_LISTED), DEFAULT_MAX_PARTS_LISTED);
  const marker = parseCount(queryValue(s3.query, 'part-number-marker'), 'part-number-marker', 0);
  const found = await context.repository.uploads.parts(upload.uploadId, { after: marker, limit: maxParts + 1 });
  const page = found.slice(0, maxParts);
  const truncated = found.length > maxParts;
  const initiator = upload.ownerIdentity ?? 'server';
  return xmlReply(
    s3,
    'ListPartsResult',
    textElement('Bucket', s3.bucket) +
      textElement('Key', s3.key) +
      textElement('UploadId', upload.uploadId) +
      element('Initiator', textElement('ID', initiator), textElement('DisplayName', initiator)) +
      element('Owner', textElement('ID', initiator), textElement('DisplayName', initiator)) +
      textElement('StorageClass', 'STANDARD') +
      textElement('PartNumberMarker', marker) +
      textElement('NextPartNumberMarker', page.length > 0 ? page[page.length - 1].partNumber : marker) +
      textElement('MaxParts', maxParts) +
      textElement('IsTruncated', truncated) +
      page
        .map((part) =>
          element(
            'Part',
            textElement('PartNumber', part.partNumber),
            textElement('LastModified', part.lastModified.toISOString()),
            textElement('ETag', part.etag),
            textElement('Size', part.size),
          ),
        )
        .join(''),
  );
}
