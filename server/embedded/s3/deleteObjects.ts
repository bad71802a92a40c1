// DeleteObjects (`POST /<bucket>?delete`): up to 1000 keys in one request, each deleted as DeleteObject deletes it,
// each refused on its own (AccessDenied in the answer) where the caller may not write it.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { mayAccess } from './access';
import type { S3Request, StorageContext } from './context';
import { errors, S3Error } from './errors';
import { ObjectLocked } from './repository';
import { removeObjectFiles } from './files';
import { parseXmlBody, readSmallBody } from './http';
import { auditWrite } from './writeAudit';
import { element, textElement, xmlDocument } from './xml';

const MAX_KEYS = 1000;
/** 1000 keys of 1024 bytes, with their markup. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

function header(s3: S3Request, name: string): string | undefined {
  const value = s3.request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** S3 requires an integrity check of this body (and of PutObjectRetention's): Content-MD5 or a CRC32 checksum (the SDKs' default). */
export function checkBodyDigest(s3: S3Request, body: Buffer): void {
  const md5 = header(s3, 'content-md5');
  const checksum = header(s3, 'x-amz-checksum-crc32');
  if (md5 === undefined && checksum === undefined) throw errors.invalidRequest('Missing required header for this request: Content-MD5 or x-amz-checksum-crc32');
  if (md5 !== undefined && md5 !== createHash('md5').update(body).digest('base64')) throw errors.badDigest('Content-MD5');
  if (checksum !== undefined) {
    const expected = Buffer.alloc(4);
    expected.writeUInt32BE(crc32(body));
    if (checksum !== expected.toString('base64')) throw errors.badDigest('CRC32 checksum');
  }
}

function parseDeleteRequest(body: Buffer): { keys: string[]; quiet: boolean } {
  const root = parseXmlBody(body, 'Delete');
  const objects = root.children.filter((child) => child.name === 'Object');
  if (objects.length === 0 || objects.length > MAX_KEYS) throw errors.malformedXml();
  const keys = objects.map((object) => {
    const key = object.children.find((child) => child.name === 'Key')?.text;
    if (key === undefined || key === '') throw errors.malformedXml();
    return key;
  });
  const quiet = root.children.find((child) => child.name === 'Quiet')?.text.trim() === 'true';
  return { keys, quiet };
}

export async function deleteObjects(context: StorageContext, s3: S3Request) {
  for (const name of Object.keys(s3.request.headers)) {
    if (name.startsWith('x-amz-checksum-') && name !== 'x-amz-checksum-crc32') throw errors.notImplemented(`The ${name} checksum`);
  }
  const body = await readSmallBody(s3, MAX_BODY_BYTES);
  checkBodyDigest(s3, body);
  const { keys, quiet } = parseDeleteRequest(body);
  const results: string[] = [];
  for (const key of [...new Set(keys)]) {
    if (!mayAccess(s3.principal, key, 'write')) {
      const denied = errors.accessDenied();
      results.push(element('Error', textElement('Key', key), textElement('Code', denied.code), textElement('Message', denied.message)));
      continue;
    }
    try {
      // Rows first, then files, as DeleteObject: a crash in between leaves unreferenced files for the sweep.
      await removeObjectFiles(context.layout, await context.repository.objects.remove(s3.bucket, key, new Date(context.now())));
      await auditWrite(context, s3, { operation: 'DeleteObject', key });
      if (!quiet) results.push(element('Deleted', textElement('Key', key)));
    } catch (error) {
      if (!(error instanceof ObjectLocked)) context.log.error({ err: error }, 'embedded s3 delete failed');
      const failure = error instanceof S3Error ? error : error instanceof ObjectLocked ? errors.objectLocked() : errors.internal();
      results.push(element('Error', textElement('Key', key), textElement('Code', failure.code), textElement('Message', failure.message)));
    }
  }
  return s3.reply.code(200).type('application/xml').send(xmlDocument('DeleteResult', results.join('')));
}
