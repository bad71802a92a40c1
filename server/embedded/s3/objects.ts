// PutObject, GetObject, HeadObject and DeleteObject.
import { open, type FileHandle } from 'node:fs/promises';
import { requireAccess, ownerOf } from './access';
import { queryValue, type S3Request, type StorageContext } from './context';
import { errors } from './errors';
import { newObjectFile, objectPath, publishObjectFile, removeQuietly, tmpPath } from './files';
import { checkEmptyPayload, contentTypeOf, evaluateConditions, parseRange, quotedEtag, receiveBody, storedHeaders } from './http';
import type { ObjectRecord } from './repository';

/** S3's limit for one PUT. */
export const MAX_PUT_BYTES = 5 * 1024 ** 3;

const RESPONSE_OVERRIDES: Record<string, string> = {
  'response-content-type': 'content-type',
  'response-content-language': 'content-language',
  'response-expires': 'expires',
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
};

export async function putObject(context: StorageContext, s3: S3Request) {
  requireAccess(s3.principal, s3.key, 'write');
  if (s3.request.headers['x-amz-copy-source'] !== undefined) throw errors.notImplemented('CopyObject');
  const contentType = contentTypeOf(s3.request.headers);
  const headers = storedHeaders(s3.request.headers);

  // Bytes first, to a temp file that is complete and fsynced before it is renamed into place; only then the
  // row that makes it visible. A crash at any point leaves the old object or the new one, never a torn one.
  const tmp = tmpPath(context.layout);
  const written = await receiveBody(s3, tmp, { maxBytes: Math.min(MAX_PUT_BYTES, context.settings.maxObjectBytes), sync: true });
  const file = newObjectFile();
  try {
    await publishObjectFile(context.layout, tmp, file);
  } catch (error) {
    await removeQuietly(tmp);
    throw error;
  }
  const etag = quotedEtag(written.md5);
  let replaced: string | undefined;
  try {
    replaced = await context.repository.objects.put({
      bucket: s3.bucket,
      key: s3.key,
      size: written.size,
      etag,
      contentType,
      headers,
      file,
      ownerIdentity: ownerOf(s3.principal),
      lastModified: new Date(context.now()),
    });
  } catch (error) {
    await removeQuietly(objectPath(context.layout, file));
    throw error;
  }
  if (replaced) await removeQuietly(objectPath(context.layout, replaced));
  return s3.reply.code(200).header('etag', etag).send();
}

/**
 * The object's row and an open handle on its file. A concurrent overwrite may delete the file between the two
 * reads: then the row is read again (an open handle keeps its bytes readable whatever happens next).
 */
async function openObject(context: StorageContext, bucket: string, key: string): Promise<{ object: ObjectRecord; handle: FileHandle }> {
  for (let attempt = 0; ; attempt += 1) {
    const object = await context.repository.objects.find(bucket, key);
    if (!object) throw errors.noSuchKey(key);
    try {
      return { object, handle: await open(objectPath(context.layout, object.file), 'r') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 2) throw error;
    }
  }
}

export async function getObject(context: StorageContext, s3: S3Request, head: boolean) {
  requireAccess(s3.principal, s3.key, 'read');
  checkEmptyPayload(s3);
  const { reply } = s3;
  let object: ObjectRecord | undefined;
  let handle: FileHandle | undefined;
  if (head) {
    object = await context.repository.objects.find(s3.bucket, s3.key);
    if (!object) throw errors.noSuchKey(s3.key);
  } else {
    ({ object, handle } = await openObject(context, s3.bucket, s3.key));
  }
  try {
    reply.header('etag', object.etag).header('last-modified', object.lastModified.toUTCString()).header('accept-ranges', 'bytes');
    if (evaluateConditions(s3.request.headers, object.etag, object.lastModified) === 'not-modified') {
      await handle?.close();
      return reply.code(304).send();
    }
    const range = parseRange(s3.request.headers.range, object.size);
    reply.header('content-type', object.contentType);
    for (const [name, value] of Object.entries(object.headers)) reply.header(name, value);
    for (const [parameter, name] of Object.entries(RESPONSE_OVERRIDES)) {
      const value = queryValue(s3.query, parameter);
      if (value !== undefined) reply.header(name, value);
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? object.size - 1;
    if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${object.size}`);
    reply.header('content-length', String(end - start + 1));
    if (!handle || object.size === 0) {
      await handle?.close();
      return reply.send(head ? undefined : Buffer.alloc(0));
    }
    return reply.send(handle.createReadStream({ start, end }));
  } catch (error) {
    await handle?.close();
    throw error;
  }
}

export async function deleteObject(context: StorageContext, s3: S3Request) {
  requireAccess(s3.principal, s3.key, 'write');
  checkEmptyPayload(s3);
  const file = await context.repository.objects.remove(s3.bucket, s3.key);
  // The row went first: a crash now leaves an unreferenced file, which the sweep removes.
  if (file) await removeQuietly(objectPath(context.layout, file));
  return s3.reply.code(204).send();
}
