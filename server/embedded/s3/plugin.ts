// The Fastify face of the storage endpoint: path-style S3 (`<prefix>/<bucket>/<key>`), every request SigV4-checked,
// bodies streamed to disk, XML answers and errors as S3 gives them, CORS for the browser SDK.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DISK_FULL_LOG, isDiskFull } from '../../diskFull';
import { authenticate, splitUrl, type AwsCredentials, type ResolveTemporaryCredentials } from './auth';
import type { S3Request, StorageContext } from './context';
import type { StorageWriteAudit } from './writeAudit';
import { STORAGE_CSP } from './contentSafety';
import { deleteObjects } from './deleteObjects';
import { isDatabaseUnavailable, unavailabilityReason } from '../../db';
import { errors, S3Error } from './errors';
import { prepareLayout, storageLayout } from './files';
import { BodyHashing } from './hashing';
import { listObjects } from './listing';
import { StorageMaintenance, sweepStorage, type SweepReport } from './maintenance';
import { abortMultipartUpload, completeMultipartUpload, createMultipartUpload, listParts, uploadPart } from './multipart';
import { deleteObject, getObject, putObject } from './objects';
import { getObjectRetention, putObjectRetention } from './objectLock';
import { ObjectLocked } from './repository';
import { withinQuota, type QuotaOf } from './quota';
import { createQuotaRepository } from './quotaRepository';
import { createStorageRepository } from './repository';
import type { StorageTables } from './tables';
import { textElement, XML_INVALID, xmlDocument } from './xml';

export interface EmbeddedS3Options {
  /** The application's Kysely instance; the endpoint reaches its own tables through `withTables`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any application Database type is accepted
  db: Kysely<any>;
  /** The buckets that exist; any other name answers NoSuchBucket. */
  buckets: string[];
  /** Objects go under `<dataDir>/objects`, parts of unfinished uploads under `<dataDir>/uploads`. */
  dataDir: string;
  /** The region requests must be signed for, e.g. `eu-west-1`. */
  region: string;
  /** Long-term credentials of the API server itself: they may do everything. */
  serverCredentials: AwsCredentials;
  /** The identity pool's temporary credentials for an access key id (undefined: unknown). */
  resolveTemporaryCredentials?: ResolveTemporaryCredentials;
  /** Largest object, single put or multipart (default 5 GiB). */
  maxObjectBytes?: number;
  /** Unfinished multipart uploads are removed after this long (default 24 h). */
  abandonedUploadSeconds?: number;
  /** How often the sweep runs (default: an hour, or a quarter of the abandoned-upload age if shorter). */
  sweepIntervalSeconds?: number;
  /** Files no row points at are removed once older than this (default 1 h). */
  orphanGraceSeconds?: number;
  /** Tolerated distance between x-amz-date and the server clock (default 900 s, as S3). */
  maxClockSkewSeconds?: number;
  /**
   * Part files of a multipart object opened before a read's answer starts (default 64): those are read whole
   * whatever happens meanwhile; later ones open when reached, and if an overwrite removed one the answer breaks
   * off. Bounds the file descriptors a read holds.
   */
  maxOpenSegments?: number;
  /**
   * Access-Control-Allow-Origin: `*` (default), a list of origins, or false when the host app already answers
   * CORS for every route (it must then allow and expose the headers in S3_CORS_ALLOWED_HEADERS/EXPOSED_HEADERS).
   */
  corsOrigins?: '*' | string[] | false;
  maintenance?: StorageMaintenance;
  /**
   * The quota of the area a written key is in (docs/storage.md, "Quotas"): PutObject and UploadPart over it are
   * refused before their body is read. Default: no quotas.
   */
  quotaOf?: QuotaOf;
  /**
   * Worker threads that hash uploaded bodies (MD5 for ETags, SHA-256 and CRC32 to check them); 0 hashes on the
   * event loop. Default 1 (docs/storage.md, Performance).
   */
  hashThreads?: number;
  /** Where every write and delete is reported, as it happens (writeAudit.ts). */
  audit?: StorageWriteAudit;
  /** The clock, in epoch milliseconds (tests move it). */
  now?: () => number;
}

const GIB = 1024 ** 3;

/** Request headers the S3 SDKs send from a browser. */
export const S3_CORS_ALLOWED_HEADERS = [
  'authorization', 'content-type', 'content-md5', 'content-disposition', 'content-encoding', 'content-language',
  'cache-control', 'expires', 'range', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since',
  'x-amz-date', 'x-amz-content-sha256', 'x-amz-security-token', 'x-amz-user-agent', 'x-amz-checksum-crc32',
  'x-amz-checksum-sha256', 'x-amz-sdk-checksum-algorithm', 'x-amz-checksum-algorithm', 'x-amz-expected-bucket-owner',
  'amz-sdk-invocation-id', 'amz-sdk-request',
];
/** Response headers the SDKs read: without ETag exposed, lib-storage cannot complete a multipart upload. */
export const S3_CORS_EXPOSED_HEADERS = [
  'etag', 'x-amz-version-id', 'x-amz-checksum-crc32', 'x-amz-checksum-crc32c', 'x-amz-checksum-crc64nvme',
  'x-amz-checksum-sha1', 'x-amz-checksum-sha256', 'x-amz-checksum-type', 'content-range', 'accept-ranges',
  'content-length', 'content-type', 'content-disposition', 'last-modified', 'x-amz-request-id', 'x-amz-id-2', 'date',
];
const ALLOWED_REQUEST_HEADER = /^(x-amz-[a-z0-9-]+|amz-sdk-[a-z0-9-]+)$/;

function sendError(request: FastifyRequest, reply: FastifyReply, error: S3Error, resource: string) {
  reply.code(error.statusCode);
  // S3 answers HEAD errors with the status alone.
  if (request.method === 'HEAD') return reply.send();
  const details = Object.entries(error.details)
    .map(([name, value]) => textElement(name, value))
    .join('');
  const body = xmlDocument(
    'Error',
    textElement('Code', error.code) +
      textElement('Message', error.message) +
      details +
      textElement('Resource', resource) +
      textElement('RequestId', String(reply.getHeader('x-amz-request-id') ?? '')),
    false,
  );
  return reply.type('application/xml').send(body);
}

/** `<prefix>/<bucket>/<key>` → the decoded bucket and key. */
function parsePath(rawPath: string, prefix: string): { bucket: string; key: string } {
  const rest = rawPath.startsWith(prefix) ? rawPath.slice(prefix.length) : rawPath;
  const trimmed = rest.startsWith('/') ? rest.slice(1) : rest;
  const slash = trimmed.indexOf('/');
  try {
    const bucket = decodeURIComponent(slash < 0 ? trimmed : trimmed.slice(0, slash));
    const key = slash < 0 ? '' : decodeURIComponent(trimmed.slice(slash + 1));
    if (Buffer.byteLength(key) > 1024) throw errors.keyTooLong();
    return { bucket, key };
  } catch (error) {
    if (error instanceof S3Error) throw error;
    throw errors.invalidUri();
  }
}

const SUBRESOURCES_NOT_IMPLEMENTED = ['acl', 'tagging', 'versioning', 'versionId', 'versions', 'policy', 'cors', 'lifecycle', 'website', 'restore', 'select', 'attributes', 'legal-hold', 'object-lock', 'torrent', 'notification', 'encryption', 'replication', 'logging', 'uploads-list'];

async function dispatch(context: StorageContext, s3: S3Request) {
  const { method } = s3.request;
  const has = (name: string) => s3.query[name] !== undefined;
  const unsupported = SUBRESOURCES_NOT_IMPLEMENTED.find(has) ?? (s3.key !== '' && has('delete') ? 'delete' : undefined);
  if (unsupported) throw errors.notImplemented(`The ${unsupported} subresource`);

  if (s3.key === '') {
    if (method === 'GET' && has('location')) {
      return s3.reply.type('application/xml').send(xmlDocument('LocationConstraint', context.auth.region === 'us-east-1' ? '' : context.auth.region));
    }
    if (method === 'GET' && has('uploads')) throw errors.notImplemented('ListMultipartUploads');
    if (method === 'POST' && has('delete')) return deleteObjects(context, s3);
    if (method === 'GET') return listObjects(context.repository, s3.bucket, s3.principal, s3.query, s3.reply);
    if (method === 'HEAD') return s3.reply.code(200).header('x-amz-bucket-region', context.auth.region).send();
    throw errors.methodNotAllowed();
  }
  if (has('retention')) {
    if (method === 'PUT') return putObjectRetention(context, s3);
    if (method === 'GET') return getObjectRetention(context, s3);
    throw errors.methodNotAllowed();
  }
  switch (method) {
    case 'GET':
      return has('uploadId') ? listParts(context, s3) : getObject(context, s3, false);
    case 'HEAD':
      return getObject(context, s3, true);
    case 'PUT': {
      // Answered only once withinQuota has returned: a client holding the answer may upload again at once, and the
      // bytes of this upload must by then count as its object or part, not also as a reservation.
      const { etag } = await withinQuota(context, s3, () => (has('uploadId') || has('partNumber') ? uploadPart(context, s3) : putObject(context, s3)));
      return s3.reply.code(200).header('etag', etag).send();
    }
    case 'POST':
      if (has('uploads')) return createMultipartUpload(context, s3);
      if (has('uploadId')) return completeMultipartUpload(context, s3);
      throw errors.methodNotAllowed();
    case 'DELETE':
      return has('uploadId') ? abortMultipartUpload(context, s3) : deleteObject(context, s3);
    default:
      throw errors.methodNotAllowed();
  }
}

export async function embeddedS3(app: FastifyInstance, options: EmbeddedS3Options): Promise<void> {
  for (const bucket of options.buckets) {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`embeddedS3: ${bucket} is not a valid bucket name`);
  }
  const now = options.now ?? Date.now;
  const layout = storageLayout(options.dataDir);
  await prepareLayout(layout);
  const context: StorageContext = {
    settings: { buckets: new Set(options.buckets), maxObjectBytes: options.maxObjectBytes ?? 5 * GIB, prefix: app.prefix, maxOpenSegments: options.maxOpenSegments ?? 64 },
    auth: {
      region: options.region,
      serverCredentials: options.serverCredentials,
      resolveTemporaryCredentials: options.resolveTemporaryCredentials,
      maxClockSkewSeconds: options.maxClockSkewSeconds ?? 900,
    },
    repository: createStorageRepository(options.db.withTables<StorageTables>() as unknown as Kysely<StorageTables>),
    layout,
    hashing: new BodyHashing(options.hashThreads ?? 1),
    quotaOf: options.quotaOf,
    quotas: options.quotaOf && createQuotaRepository(options.db.withTables<StorageTables>() as unknown as Kysely<StorageTables>),
    now,
    log: app.log,
    audit: options.audit,
  };

  // The sweep: at start, then on an interval; never two at once; the app waits for it when closing.
  const abandonedUploadMs = (options.abandonedUploadSeconds ?? 24 * 3600) * 1000;
  const orphanGraceMs = (options.orphanGraceSeconds ?? 3600) * 1000;
  let sweeping: Promise<SweepReport> | undefined;
  const sweep = () => {
    sweeping ??= sweepStorage(context, { abandonedUploadMs, orphanGraceMs }).finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };
  const sweepQuietly = () => void sweep().catch((error: unknown) => app.log.error({ err: error }, 'embedded s3 sweep failed'));
  const intervalMs = (options.sweepIntervalSeconds ?? Math.min(3600, abandonedUploadMs / 4000)) * 1000;
  const timer = setInterval(sweepQuietly, intervalMs);
  timer.unref();
  options.maintenance?.attach(sweep);
  app.addHook('onReady', async () => sweepQuietly());
  app.addHook('onClose', async () => {
    clearInterval(timer);
    options.maintenance?.attach(undefined);
    await sweeping?.catch(() => undefined);
    await context.hashing.close();
  });

  // Bodies stay streams: uploads go to disk as they arrive and never sit whole in memory.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const origins = options.corsOrigins ?? '*';
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-amz-request-id', randomBytes(8).toString('hex').toUpperCase()).header('x-amz-id-2', randomBytes(24).toString('base64'));
    // A stored file is never a page of the app's origin: no script, no plugin, no sniffing, whatever its type.
    reply.header('content-security-policy', STORAGE_CSP).header('x-content-type-options', 'nosniff');
    if (origins === false) return;
    const origin = request.headers.origin;
    if (origins === '*') reply.header('access-control-allow-origin', '*');
    else if (origin && origins.includes(origin)) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    reply.header('access-control-expose-headers', S3_CORS_EXPOSED_HEADERS.join(', '));
  });
  if (origins !== false) {
    const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
      const requested = String(request.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean);
      const allowed = requested.filter((name) => S3_CORS_ALLOWED_HEADERS.includes(name) || ALLOWED_REQUEST_HEADER.test(name));
      return reply
        .code(200)
        .header('access-control-allow-methods', 'GET, PUT, POST, DELETE, HEAD')
        .header('access-control-allow-headers', [...new Set([...S3_CORS_ALLOWED_HEADERS, ...allowed])].join(', '))
        .header('access-control-max-age', '3000')
        .send();
    };
    app.options('/', { schema: { hide: true } }, preflight);
    app.options('/*', { schema: { hide: true } }, preflight);
  }

  app.setErrorHandler((error, request, reply) => {
    const resource = splitUrl(request.raw.url ?? '').path;
    if (error instanceof S3Error) return sendError(request, reply, error, resource);
    if (error instanceof ObjectLocked) return sendError(request, reply, errors.objectLocked(), resource);
    const { statusCode, message } = error as { statusCode?: number; message?: string };
    // The host app's rate limit, as S3 throttles: 503 SlowDown, which the SDKs retry with back-off.
    if (statusCode === 429) return sendError(request, reply, errors.slowDown(), resource);
    // Fastify's own refusals (a malformed Content-Type, a bad URL) keep their 4xx meaning.
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return sendError(request, reply, errors.invalidRequest(message ?? 'Bad request'), resource);
    if (isDatabaseUnavailable(error)) {
      request.log.error({ event: 'database.unavailable', reason: unavailabilityReason(error) }, 'embedded s3: the database is unreachable');
      return sendError(request, reply, errors.serviceUnavailable(), resource);
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error, event: DISK_FULL_LOG.event }, DISK_FULL_LOG.message);
      return sendError(request, reply, errors.storageFull(), resource);
    }
    request.log.error({ err: error }, 'embedded s3 request failed');
    return sendError(request, reply, errors.internal(), resource);
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const rawUrl = request.raw.url ?? '/';
    const { path, query } = splitUrl(rawUrl);
    const { bucket, key } = parsePath(path, app.prefix);
    const { principal, payloadHash, chunkSigning } = await authenticate({ method: request.method, rawUrl, headers: request.headers }, context.auth, now());
    if (bucket === '') throw errors.notImplemented('ListBuckets');
    if (!context.settings.buckets.has(bucket)) throw errors.noSuchBucket(bucket);
    // A key XML cannot carry could never be listed: refused when written (docs/storage.md, "Keys").
    if ((request.method === 'PUT' || request.method === 'POST') && XML_INVALID.test(key)) {
      throw errors.invalidArgument('Object keys may not contain control characters or other characters XML 1.0 cannot carry.');
    }
    const body = (request.body as Readable | undefined) ?? request.raw;
    return dispatch(context, { bucket, key, query, principal, payloadHash, chunkSigning, request, reply, body });
  };
  const methods = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'] as const;
  app.route({ method: [...methods], url: '/', exposeHeadRoute: false, schema: { hide: true }, handler });
  app.route({ method: [...methods], url: '/*', exposeHeadRoute: false, schema: { hide: true }, handler });
}

