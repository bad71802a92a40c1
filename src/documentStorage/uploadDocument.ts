// Document storage: uploads through @aws-sdk/lib-storage and signed download URLs, the same code against AWS S3
// and the embedded endpoint, in the browser and in Node (the admin script signs download URLs with it). In the
// browser only the upload field loads it (it carries the S3 SDK); login code never does.
import { AbortMultipartUploadCommand, ListPartsCommand, S3Client } from '@aws-sdk/client-s3';
import { fromCognitoIdentity } from '@aws-sdk/credential-providers';
import { Upload } from '@aws-sdk/lib-storage';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { EventEmitter } from 'events';
import type { RuntimeConfig } from '../config';
import { storageOrigin } from './storageOrigin';
import { putWithProgress, type SignedRequest, type XhrLike } from './xhrPut';

/** The storage constants of the product: 5 MiB parts (bodies up to one part go in one put), 4 in parallel. */
export const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 4;
const MAX_PARTS = 10_000;
const DEFAULT_URL_EXPIRY_SECONDS = 900;
const DEFAULT_CONTENT_TYPE = 'binary/octet-stream';

type AccessLevel = 'public' | 'protected' | 'private';
export type StorageConfig = Pick<RuntimeConfig['storage'], 'region' | 'bucket' | 'endpoint'>;

interface StorageCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}
/** Static credentials, or a provider such as `fromCognitoIdentityPool(...)`. */
type CredentialsSource = StorageCredentials | (() => Promise<StorageCredentials>);

interface UploadDocumentOptions {
  /** The name inside the access level's area, e.g. `articles/deeds.pdf`. */
  key: string;
  level: AccessLevel;
  /** Default: the file's own type, else binary/octet-stream. */
  contentType?: string;
  /** Fraction uploaded, 0 to 1; reaches 1 when the document is stored. */
  onProgress?: (fraction: number) => void;
  /** Aborting cancels the upload and removes what was sent of it. */
  signal?: AbortSignal;
  credentials: CredentialsSource;
  /** The signed-in identity (`<region>:<uuid>`), owner of the protected and private areas. */
  identityId: string;
  config: StorageConfig;
  queueSize?: number;
  /** Each request must answer within this long (default: no limit). */
  requestTimeoutMs?: number;
  /**
   * How a PUT is sent with upload progress: the browser's XMLHttpRequest by default. Where there is none, PUTs go
   * through the SDK's own handler and progress moves only as each part is stored.
   */
  createXhr?: () => XhrLike;
}

interface StoredDocument {
  bucket: string;
  /** The full key, with the access level's prefix. */
  key: string;
  etag?: string;
}

/** Where a document of this level lives: `public/`, `protected/{identityId}/` or `private/{identityId}/`. */
export function storageKey(key: string, level: AccessLevel, identityId: string): string {
  if (typeof key !== 'string' || key === '') throw new Error('The document key must be a non-empty string');
  if (level === 'public') return `public/${key}`;
  if (!identityId) throw new Error('No credentials');
  return `${level}/${identityId}/${key}`;
}

/** The Logins name under which the identity pool takes its own OpenID tokens (an applicant's storage identity). */
const IDENTITY_POOL_LOGIN = 'cognito-identity.amazonaws.com';

/**
 * Credentials for an applicant's storage identity, from the identity id and token the onboarding API hands out
 * (`POST onboarding-management-private/storage-identity`): the identity pool trades the token for temporary
 * credentials of that identity only. The token lives minutes: ask for a new one for each upload.
 */
export function applicantCredentials(
  identity: { identityId: string; token: string },
  config: Pick<RuntimeConfig['identity'], 'region' | 'endpoint' | 'identityPoolEndpoint'>,
): () => Promise<StorageCredentials> {
  return fromCognitoIdentity({
    identityId: identity.identityId,
    logins: { [IDENTITY_POOL_LOGIN]: identity.token },
    clientConfig: { region: config.region, endpoint: config.identityPoolEndpoint ?? config.endpoint },
  });
}

async function resolveCredentials(source: CredentialsSource | undefined): Promise<StorageCredentials> {
  let credentials: StorageCredentials | undefined;
  try {
    credentials = typeof source === 'function' ? await source() : source;
  } catch (cause) {
    throw new Error('No credentials', { cause });
  }
  if (!credentials?.accessKeyId || !credentials.secretAccessKey) throw new Error('No credentials');
  return credentials;
}

/**
 * The one S3 client configuration, for AWS and the embedded endpoint alike. Checksums only where an operation
 * requires them: since 3.729 the SDK would add CRC32s to every upload, which the embedded endpoint checks but
 * does not return, so both backends are used the same way (docs/storage.md).
 */
export function createStorageClient(config: StorageConfig, credentials: CredentialsSource): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: true,
    credentials: () => resolveCredentials(credentials),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

type Handle = (request: { method: string }, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;

/** The page's XMLHttpRequest, looked up at each upload. */
const browserXhr = () => (typeof XMLHttpRequest === 'function' ? () => new XMLHttpRequest() as unknown as XhrLike : undefined);

/**
 * Wraps the client's HTTP handler so that a cancel stops the bytes in flight (PUTs: parts and single puts; the
 * clean-up calls still go out) and a request that takes too long fails with the product's timeout message. PUTs
 * go with XMLHttpRequest where there is one: the wrapper is an EventEmitter of `xhr.upload.progress`, which
 * lib-storage listens to, so progress moves every few kilobytes instead of once per 5 MiB part.
 */
function guardRequests(client: S3Client, signal: AbortSignal | undefined, timeoutMs: number | undefined, createXhr: (() => XhrLike) | undefined): void {
  const config = client.config as unknown as { requestHandler: { handle: Handle; destroy?: () => void } };
  const inner = config.requestHandler;
  const emitter = new EventEmitter();
  // lib-storage passes the request on for a part (it tells parts apart by `partNumber`).
  const send: Handle = (request, options) =>
    request.method === 'PUT' && createXhr
      ? putWithProgress(createXhr(), request as SignedRequest, (progress) => emitter.emit('xhr.upload.progress', progress, request), options?.abortSignal)
      : inner.handle.call(inner, request, options);
  const handle: Handle = async (request, options = {}) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    const stops = [options.abortSignal, request.method === 'PUT' ? signal : undefined].filter((s): s is AbortSignal => s !== undefined);
    stops.forEach((stop) => (stop.aborted ? abort() : stop.addEventListener('abort', abort, { once: true })));
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          abort();
        }, timeoutMs)
      : undefined;
    try {
      return await send(request, { ...options, abortSignal: controller.signal });
    } catch (error) {
      if (timedOut) throw Object.assign(new Error(`Request did not complete within ${timeoutMs} ms`), { name: 'TimeoutError' });
      throw error;
    } finally {
      clearTimeout(timer);
      stops.forEach((stop) => stop.removeEventListener('abort', abort));
    }
  };
  // The SDK reads the handler from its configuration at every send.
  // Only an emitter when PUTs go with XMLHttpRequest: lib-storage counts a part's bytes itself only when the
  // handler is not one.
  const wrapper = { handle, destroy: () => inner.destroy?.() };
  config.requestHandler = createXhr ? Object.assign(emitter, wrapper) : wrapper;
}

/** What lib-storage did, seen from the client: the upload id, whether it completed, the requests in flight. */
function trackRequests(client: S3Client) {
  const state = { uploadId: undefined as string | undefined, stored: undefined as { ETag?: string } | undefined, inFlight: new Set<Promise<unknown>>() };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const pending = next(args);
      state.inFlight.add(pending);
      try {
        const result = await pending;
        const output = result.output as { UploadId?: string; ETag?: string };
        if (context.commandName === 'CreateMultipartUploadCommand') state.uploadId = output.UploadId;
        if (context.commandName === 'CompleteMultipartUploadCommand' || context.commandName === 'PutObjectCommand') state.stored = output;
        return result;
      } finally {
        state.inFlight.delete(pending);
      }
    },
    { step: 'initialize', name: 'documentUploadTracking' },
  );
  return {
    state,
    /** Resolves once nothing is in flight: after a cancel, lib-storage starts no new request. */
    async settled() {
      while (state.inFlight.size > 0) await Promise.allSettled([...state.inFlight]);
    },
  };
}

const errorName = (error: unknown) => (error as { name?: string } | undefined)?.name;

/** Aborts the multipart upload, then checks that S3 keeps no part of it. */
async function cleanUp(client: S3Client, Bucket: string, Key: string, UploadId: string): Promise<void> {
  try {
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
    const { Parts } = await client.send(new ListPartsCommand({ Bucket, Key, UploadId }));
    if (Parts && Parts.length > 0) throw new Error('parts remain');
  } catch (error) {
    if (errorName(error) === 'NoSuchUpload') return;
    throw new Error('Multi Part upload clean up failed', { cause: error });
  }
}

/**
 * Uploads a document to its access level's area. Rejects with "Upload was cancelled." after a cancel, once the
 * parts sent are removed; with "Multi Part upload clean up failed" when they could not be.
 */
export async function uploadDocument(file: Blob & { name?: string }, options: UploadDocumentOptions): Promise<StoredDocument> {
  const queueSize = options.queueSize ?? QUEUE_SIZE;
  if (!(queueSize > 0)) throw new Error('Queue size must be a positive number');
  if (file.size > PART_SIZE * MAX_PARTS) throw new Error(`Only a maximum of ${MAX_PARTS} parts are allowed`);
  const Key = storageKey(options.key, options.level, options.identityId);
  const Bucket = options.config.bucket;
  const { signal } = options;
  if (signal?.aborted) throw new Error('Upload was cancelled.');
  await resolveCredentials(options.credentials);

  const client = createStorageClient(options.config, options.credentials);
  guardRequests(client, signal, options.requestTimeoutMs, options.createXhr ?? browserXhr());
  const tracking = trackRequests(client);
  const upload = new Upload({
    client,
    params: { Bucket, Key, Body: file, ContentType: options.contentType ?? (file.type || DEFAULT_CONTENT_TYPE) },
    partSize: PART_SIZE,
    queueSize,
    // The clean-up below aborts and then verifies; lib-storage's own abort would race it.
    leavePartsOnError: true,
  });
  let reported = 0;
  const report = (fraction: number) => {
    if (fraction > reported) {
      reported = Math.min(1, fraction);
      options.onProgress?.(reported);
    }
  };
  upload.on('httpUploadProgress', ({ loaded, total }) => {
    if (loaded !== undefined && total) report(loaded / total);
  });
  const cancel = () => void upload.abort();
  signal?.addEventListener('abort', cancel, { once: true });

  try {
    const result = await upload.done();
    report(1);
    return { bucket: Bucket, key: Key, etag: result.ETag };
  } catch (error) {
    await tracking.settled();
    // A cancel that came after the document was stored changes nothing.
    if (tracking.state.stored && errorName(error) === 'AbortError') {
      report(1);
      return { bucket: Bucket, key: Key, etag: tracking.state.stored.ETag };
    }
    if (tracking.state.uploadId) await cleanUp(client, Bucket, Key, tracking.state.uploadId);
    if (signal?.aborted) throw new Error('Upload was cancelled.', { cause: error });
    throw error;
  } finally {
    signal?.removeEventListener('abort', cancel);
    client.destroy();
  }
}

const escapeUri = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A URL that downloads the document for `expiresIn` seconds (default 900) without credentials, signed locally
 * exactly as @aws-sdk/s3-request-presigner signs GetObject (query-string SigV4, UNSIGNED-PAYLOAD).
 */
export async function getDownloadUrl(
  key: string,
  options: { level: AccessLevel; identityId: string; credentials: CredentialsSource; config: StorageConfig; expiresIn?: number },
): Promise<string> {
  return presignGetObject(storageKey(key, options.level, options.identityId), options);
}

/** The same URL for a full key (`private/<identity>/…`), as the bank's own tools sign it with their credentials. */
export async function presignGetObject(
  Key: string,
  options: { credentials: CredentialsSource; config: StorageConfig; expiresIn?: number },
): Promise<string> {
  const expiresIn = options.expiresIn ?? DEFAULT_URL_EXPIRY_SECONDS;
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > 604_800) throw new Error('expiresIn must be a whole number of seconds from 1 to 604800');
  const credentials = await resolveCredentials(options.credentials);
  const { region, bucket, endpoint } = options.config;
  const base = new URL(endpoint ?? storageOrigin({ region }));
  const path = `${base.pathname.replace(/\/+$/, '')}/${escapeUri(bucket)}/${Key.split('/').map(escapeUri).join('/')}`;
  const signer = new SignatureV4({ credentials, region, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const presigned = await signer.presign(
    {
      method: 'GET',
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port ? Number(base.port) : undefined,
      path,
      query: { 'x-id': 'GetObject' },
      headers: { host: base.host, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
    },
    { expiresIn, unsignableHeaders: new Set(['content-type']) },
  );
  const query = Object.entries(presigned.query ?? {})
    .map(([name, value]) => `${escapeUri(name)}=${escapeUri(String(value))}`)
    .join('&');
  return `${base.protocol}//${base.host}${path}?${query}`;
}
