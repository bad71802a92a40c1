// PutObject, GetObject, HeadObject and DeleteObject.
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { requireAccess, ownerOf } from './access';
import { auditWrite } from './writeAudit';
import { safeDisposition } from './contentSafety';
import { queryValue, type S3Request, type StorageContext } from './context';
import { errors } from './errors';
import { newObjectFile, objectPath, publishObjectFile, removeObjectFiles, removeQuietly, tmpPath } from './files';
import { checkEmptyPayload, contentTypeOf, createOnlyRequested, evaluateConditions, parseRange, quotedEtag, receiveBody, refusalOf, storedHeaders } from './http';
import type { CreateRefusal, ObjectRecord, Segment } from './repository';

/** S3's limit for one PUT. */
const MAX_PUT_BYTES = 5 * 1024 ** 3;

const RESPONSE_OVERRIDES: Record<string, string> = {
  'response-content-type': 'content-type',
  'response-content-language': 'content-language',
  'response-expires': 'expires',
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
};

/** Visible ASCII and spaces: a header value that cannot end the header or start another (RFC 9110 field-vchar). */
const HEADER_VALUE = /^[\x20-\x7e]*$/;

/**
 * The response overrides asked for, each checked before anything is sent: a value with a line break, a control
 * character or a character beyond ASCII could split the answer's headers, and Node refuses it mid-answer.
 * A non-ASCII file name travels percent-encoded (RFC 6266's `filename*=UTF-8''…`).
 */
function responseOverrides(s3: S3Request): [string, string][] {
  const overrides: [string, string][] = [];
  for (const [parameter, name] of Object.entries(RESPONSE_OVERRIDES)) {
    const value = queryValue(s3.query, parameter);
    if (value === undefined) continue;
    if (!HEADER_VALUE.test(value)) throw errors.invalidArgument(`${parameter} may hold only visible ASCII characters and spaces`, parameter);
    overrides.push([name, value]);
  }
  return overrides;
}

/** Stores the object; the caller answers with its ETag once the write is over (its quota reservation released). */
export async function putObject(context: StorageContext, s3: S3Request): Promise<{ etag: string }> {
  requireAccess(s3.principal, s3.key, 'write');
  if (s3.request.headers['x-amz-copy-source'] !== undefined) throw errors.notImplemented('CopyObject');
  const contentType = contentTypeOf(s3.request.headers);
  const headers = storedHeaders(s3.request.headers);
  // A create (If-None-Match: *) is decided when it commits; whether the key held an object as it began tells a
  // delete that ran meanwhile (S3's 409) from an object that is simply there (412).
  const createOnly = createOnlyRequested(s3.request.headers) ? { existedAtStart: await context.repository.objects.exists(s3.bucket, s3.key) } : undefined;

  // Bytes first, to a temp file that is complete and fsynced before it is renamed into place; only then the
  // row that makes it visible. A crash at any point leaves the old object or the new one, never a torn one.
  const tmp = tmpPath(context.layout);
  const written = await receiveBody(s3, tmp, { maxBytes: Math.min(MAX_PUT_BYTES, context.settings.maxObjectBytes), sync: true, hashing: context.hashing });
  const file = newObjectFile();
  try {
    await publishObjectFile(context.layout, tmp, file);
  } catch (error) {
    await removeQuietly(tmp);
    throw error;
  }
  const etag = quotedEtag(written.md5);
  let replaced: string[] | CreateRefusal;
  try {
    replaced = await context.repository.objects.put({
      bucket: s3.bucket,
      key: s3.key,
      size: written.size,
      etag,
      contentType,
      headers,
      segments: [{ file, size: written.size }],
      ownerIdentity: ownerOf(s3.principal),
      lastModified: new Date(context.now()),
    }, createOnly);
  } catch (error) {
    await removeQuietly(objectPath(context.layout, file));
    throw error;
  }
  if (!Array.isArray(replaced)) {
    await removeQuietly(objectPath(context.layout, file));
    throw refusalOf(replaced);
  }
  await removeObjectFiles(context.layout, replaced);
  await auditWrite(context, s3, { operation: 'PutObject', size: written.size, sha256: written.sha256?.toString('hex'), etag });
  return { etag };
}

/** A segment to send: its file (open, or to open when reached) and the part of its bytes to send. */
interface OpenSegment {
  handle?: FileHandle;
  path: string;
  from: number;
  to: number;
}

/**
 * Opens the segments holding bytes `start`..`end` (inclusive) of the object, in order (the first
 * `maxOpenSegments` of them). If one is gone (a concurrent overwrite or delete committed after the row was read
 * and removed it), those already opened are closed and undefined answered: the caller reads the row again. An
 * open handle keeps its bytes readable whatever happens next.
 */
async function openSegments(context: StorageContext, segments: Segment[], start: number, end: number): Promise<OpenSegment[] | undefined> {
  const wanted: OpenSegment[] = [];
  let offset = 0;
  for (const segment of segments) {
    const first = offset;
    const last = offset + segment.size - 1;
    offset += segment.size;
    if (segment.size === 0 || last < start || first > end) continue;
    wanted.push({ path: objectPath(context.layout, segment.file), from: Math.max(start, first) - first, to: Math.min(end, last) - first });
  }
  try {
    // A read of a larger object opens the rest as it reaches them: a descriptor per part could run out.
    for (const segment of wanted.slice(0, context.settings.maxOpenSegments)) segment.handle = await open(segment.path, 'r');
    return wanted;
  } catch (error) {
    await closeAll(wanted);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const closeAll = (segments: OpenSegment[]) => Promise.all(segments.map(({ handle }) => handle?.close().catch(() => undefined)));

/**
 * The segments' bytes one after the other, read as the client takes them; every handle closed at the end. A
 * segment beyond the first `maxOpenSegments` that a concurrent overwrite removed ends the answer early (the client
 * sees a broken transfer, never bytes of two versions).
 */
function segmentStream(segments: OpenSegment[]): Readable {
  if (segments.length === 1 && segments[0].handle) {
    const [{ handle, from, to }] = segments;
    return handle.createReadStream({ start: from, end: to });
  }
  async function* bytes() {
    try {
      for (const segment of segments) {
        segment.handle ??= await open(segment.path, 'r');
        for await (const chunk of segment.handle.createReadStream({ start: segment.from, end: segment.to, autoClose: false })) yield chunk as Buffer;
        await segment.handle.close();
        segment.handle = undefined;
      }
    } finally {
      await closeAll(segments);
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}

export async function getObject(context: StorageContext, s3: S3Request, head: boolean) {
  requireAccess(s3.principal, s3.key, 'read');
  checkEmptyPayload(s3);
  const overrides = responseOverrides(s3);
  const { reply } = s3;
  // The row, then the files it names. Conditions and the range are decided on the version actually sent.
  let object: ObjectRecord;
  let start: number;
  let end: number;
  let range: ReturnType<typeof parseRange>;
  let opened: OpenSegment[] | undefined;
  for (let attempt = 0; ; attempt += 1) {
    const found = await context.repository.objects.find(s3.bucket, s3.key);
    if (!found) throw errors.noSuchKey(s3.key);
    object = found;
    reply.header('etag', object.etag).header('last-modified', object.lastModified.toUTCString()).header('accept-ranges', 'bytes');
    if (object.retention) reply.header('x-amz-object-lock-mode', object.retention.mode).header('x-amz-object-lock-retain-until-date', object.retention.retainUntil.toISOString());
    if (evaluateConditions(s3.request.headers, object.etag, object.lastModified) === 'not-modified') return reply.code(304).send();
    range = parseRange(s3.request.headers.range, object.size);
    start = range?.start ?? 0;
    end = range?.end ?? object.size - 1;
    if (head || object.size === 0) break;
    opened = await openSegments(context, object.segments, start, end);
    if (opened) break;
    if (attempt >= 2) throw errors.internal();
  }
  try {
    reply.header('content-type', object.contentType);
    for (const [name, value] of Object.entries(object.headers)) reply.header(name, value);
    for (const [name, value] of overrides) reply.header(name, value);
    // Decided on what is actually sent, stored or asked for with response-content-type/-disposition.
    const disposition = safeDisposition(String(reply.getHeader('content-type') ?? ''), reply.getHeader('content-disposition') as string | undefined);
    if (disposition !== undefined) reply.header('content-disposition', disposition);
    if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${object.size}`);
    reply.header('content-length', String(end - start + 1));
    if (!opened) return reply.send(head ? undefined : Buffer.alloc(0));
    return reply.send(segmentStream(opened));
  } catch (error) {
    await closeAll(opened ?? []);
    throw error;
  }
}

export async function deleteObject(context: StorageContext, s3: S3Request) {
  requireAccess(s3.principal, s3.key, 'write');
  checkEmptyPayload(s3);
  const files = await context.repository.objects.remove(s3.bucket, s3.key, new Date(context.now()));
  // The rows went first: a crash now leaves unreferenced files, which the sweep removes.
  await removeObjectFiles(context.layout, files);
  await auditWrite(context, s3, { operation: 'DeleteObject' });
  return s3.reply.code(204).send();
}
