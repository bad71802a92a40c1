// ListObjects (v1) and ListObjectsV2: keys in byte order under a prefix, rolled up into common prefixes at the
// delimiter, max-keys entries per page.
import type { FastifyReply } from 'fastify';
import { requireListAccess } from './access';
import type { Principal } from './auth';
import { queryValue } from './context';
import { errors } from './errors';
import type { ListedObject, StorageRepository } from './repository';
import { element, textElement, xmlDocument } from './xml';

const DEFAULT_MAX_KEYS = 1000;
const BATCH = 1000;

interface ListPage {
  contents: ListedObject[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last key or common prefix on this page: where the next page starts after. */
  last?: string;
}

/** The smallest string after every string that starts with `prefix`, in code point (= UTF-8 byte) order. */
function successor(prefix: string): string | undefined {
  const points = Array.from(prefix);
  const last = points.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff) return undefined;
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return points.join('') + String.fromCodePoint(next);
}

function commonPrefixOf(key: string, prefix: string, delimiter: string | undefined): string | undefined {
  if (!delimiter || !key.startsWith(prefix)) return undefined;
  const at = key.indexOf(delimiter, prefix.length);
  return at < 0 ? undefined : key.slice(0, at + delimiter.length);
}

async function listPage(
  repository: StorageRepository,
  bucket: string,
  request: { prefix: string; delimiter?: string; after?: string; maxKeys: number },
): Promise<ListPage> {
  const { prefix, delimiter, maxKeys } = request;
  const page: ListPage = { contents: [], commonPrefixes: [], isTruncated: false };
  let from = prefix;
  let after = request.after;
  // A page that ended on a common prefix continues after everything under it.
  let skipping = after !== undefined && commonPrefixOf(after, prefix, delimiter) === after ? after : undefined;
  const skip = (group: string) => {
    const next = successor(group);
    if (next !== undefined) {
      from = next;
      after = undefined;
      skipping = undefined;
    } else skipping = group;
  };
  if (skipping !== undefined) skip(skipping);

  for (;;) {
    const batch = await repository.objects.list(bucket, { from, after, limit: BATCH });
    let jumped = false;
    for (const object of batch) {
      if (!object.key.startsWith(prefix)) return page;
      after = object.key;
      if (skipping !== undefined && object.key.startsWith(skipping)) continue;
      const group = commonPrefixOf(object.key, prefix, delimiter);
      if (page.contents.length + page.commonPrefixes.length >= maxKeys) {
        page.isTruncated = true;
        return page;
      }
      if (group !== undefined) {
        page.commonPrefixes.push(group);
        page.last = group;
        skip(group);
        if (skipping === undefined) {
          jumped = true;
          break;
        }
      } else {
        page.contents.push(object);
        page.last = object.key;
      }
    }
    if (!jumped && batch.length < BATCH) return page;
  }
}

function parseMaxKeys(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_MAX_KEYS;
  if (!/^\d{1,9}$/.test(raw)) throw errors.invalidArgument('max-keys must be a whole number from 0 to 2147483647');
  return Math.min(Number(raw), DEFAULT_MAX_KEYS);
}

const encodeToken = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
function decodeToken(token: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) throw errors.invalidArgument('The continuation token provided is incorrect');
  return Buffer.from(token, 'base64url').toString('utf8');
}

const contentsXml = (objects: ListedObject[], encode: (value: string) => string) =>
  objects
    .map((object) =>
      element(
        'Contents',
        textElement('Key', encode(object.key)),
        textElement('LastModified', object.lastModified.toISOString()),
        textElement('ETag', object.etag),
        textElement('Size', object.size),
        textElement('StorageClass', 'STANDARD'),
      ),
    )
    .join('');

const prefixesXml = (prefixes: string[], encode: (value: string) => string) =>
  prefixes.map((prefix) => element('CommonPrefixes', textElement('Prefix', encode(prefix)))).join('');

export async function listObjects(
  repository: StorageRepository,
  bucket: string,
  principal: Principal,
  query: Record<string, string | string[]>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const prefix = queryValue(query, 'prefix') ?? '';
  const delimiter = queryValue(query, 'delimiter') || undefined;
  const maxKeys = parseMaxKeys(queryValue(query, 'max-keys'));
  const encodingType = queryValue(query, 'encoding-type');
  if (encodingType !== undefined && encodingType !== 'url') throw errors.invalidArgument('Invalid Encoding Method specified in Request');
  // With encoding-type=url, keys go out percent-encoded so any byte survives XML.
  const encode = encodingType === 'url' ? (value: string) => encodeURIComponent(value).replace(/%2F/g, '/') : (value: string) => value;
  requireListAccess(principal, prefix);

  if (queryValue(query, 'list-type') === '2') {
    const token = queryValue(query, 'continuation-token');
    const startAfter = queryValue(query, 'start-after');
    const page = await listPage(repository, bucket, { prefix, delimiter, maxKeys, after: token !== undefined ? decodeToken(token) : startAfter || undefined });
    const body = xmlDocument(
      'ListBucketResult',
      textElement('Name', bucket) +
        textElement('Prefix', encode(prefix)) +
        (delimiter !== undefined ? textElement('Delimiter', encode(delimiter)) : '') +
        textElement('MaxKeys', maxKeys) +
        (encodingType ? textElement('EncodingType', encodingType) : '') +
        textElement('KeyCount', page.contents.length + page.commonPrefixes.length) +
        textElement('IsTruncated', page.isTruncated) +
        (token !== undefined ? textElement('ContinuationToken', token) : '') +
        (page.isTruncated && page.last !== undefined ? textElement('NextContinuationToken', encodeToken(page.last)) : '') +
        (startAfter !== undefined ? textElement('StartAfter', encode(startAfter)) : '') +
        contentsXml(page.contents, encode) +
        prefixesXml(page.commonPrefixes, encode),
    );
    return reply.type('application/xml').send(body);
  }

  const marker = queryValue(query, 'marker') ?? '';
  const page = await listPage(repository, bucket, { prefix, delimiter, maxKeys, after: marker || undefined });
  const body = xmlDocument(
    'ListBucketResult',
    textElement('Name', bucket) +
      textElement('Prefix', encode(prefix)) +
      textElement('Marker', encode(marker)) +
      // As S3: NextMarker only with a delimiter; without one, the last key is the next marker.
      (page.isTruncated && delimiter !== undefined && page.last !== undefined ? textElement('NextMarker', encode(page.last)) : '') +
      textElement('MaxKeys', maxKeys) +
      (delimiter !== undefined ? textElement('Delimiter', encode(delimiter)) : '') +
      (encodingType ? textElement('EncodingType', encodingType) : '') +
      textElement('IsTruncated', page.isTruncated) +
      contentsXml(page.contents, encode) +
      prefixesXml(page.commonPrefixes, encode),
  );
  return reply.type('application/xml').send(body);
}
