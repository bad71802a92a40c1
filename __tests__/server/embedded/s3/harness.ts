// The storage endpoint on a real port, driven by the unmodified AWS SDK. The identity pool is a test double:
// a map of temporary credentials, standing in for the embedded Cognito identity pool.
import { randomBytes, randomUUID } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { embeddedS3, StorageMaintenance, type EmbeddedS3Options, type TemporaryCredentials } from '../../../../server/embedded/s3';
import { openTestDatabase, type Dialect } from '../../helpers';

export const REGION = 'eu-west-1';
export const BUCKET = 'divilo-documents';
export const SERVER_CREDENTIALS = { accessKeyId: 'AKIAEMBEDDEDSTORAGE01', secretAccessKey: 'embedded-storage-server-secret-0123456789' };
export const MIB = 1024 * 1024;

export interface TestIdentity {
  identityId: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

/** Mints credentials the way the identity pool does and answers for them as `resolveTemporaryCredentials`. */
export class IdentityPoolDouble {
  private readonly issued = new Map<string, TemporaryCredentials>();

  mint(options: { identityId?: string; lifetimeMs?: number } = {}): TestIdentity {
    const identity = {
      identityId: options.identityId ?? `${REGION}:${randomUUID()}`,
      accessKeyId: `ASIA${randomBytes(10).toString('hex').toUpperCase().slice(0, 16)}`,
      secretAccessKey: randomBytes(30).toString('base64'),
      sessionToken: randomBytes(64).toString('base64'),
      expiration: new Date(Date.now() + (options.lifetimeMs ?? 3600_000)),
    };
    this.issued.set(identity.accessKeyId, {
      secretAccessKey: identity.secretAccessKey,
      sessionToken: identity.sessionToken,
      identityId: identity.identityId,
      expiresAt: identity.expiration,
    });
    return identity;
  }

  resolve = async (accessKeyId: string): Promise<TemporaryCredentials | undefined> => this.issued.get(accessKeyId);
}

export interface StorageHarness {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>/s3`, as the SDK is configured. */
  endpoint: string;
  dataDir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests look at the endpoint's tables directly
  db: Kysely<any>;
  /** Added to the real time on the server side. */
  /** The endpoint's clock: real time moved by `offsetMs`, or stopped at `fixedMs` when set. */
  clock: { offsetMs: number; fixedMs?: number };
  identities: IdentityPoolDouble;
  maintenance: StorageMaintenance;
  /** An SDK client for the server's credentials or an identity's; one attempt, so refusals are not retried. */
  client(credentials?: TestIdentity | { accessKeyId: string; secretAccessKey: string; sessionToken?: string }): S3Client;
  /** Closes the server and starts a new one on the same data folder and database, as a process restart would. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface StorageServerSetup {
  /** Called on each new server (the first and every restart) before the endpoint is registered: hooks that observe it. */
  beforeRegister?: (app: FastifyInstance) => void;
}

export async function startStorage(dialect: Dialect = 'sqlite', overrides: Partial<EmbeddedS3Options> = {}, setup: StorageServerSetup = {}): Promise<StorageHarness> {
  const database = await openTestDatabase(dialect);
  const clock: { offsetMs: number; fixedMs?: number } = { offsetMs: 0 };
  const identities = new IdentityPoolDouble();
  const maintenance = new StorageMaintenance();
  const clients: S3Client[] = [];

  const start = async () => {
    const app = Fastify({ logger: false });
    setup.beforeRegister?.(app);
    await app.register(embeddedS3, {
      prefix: '/s3',
      db: database.db,
      buckets: [BUCKET],
      dataDir: database.dataDir,
      region: REGION,
      serverCredentials: SERVER_CREDENTIALS,
      resolveTemporaryCredentials: identities.resolve,
      maintenance,
      now: () => clock.fixedMs ?? Date.now() + clock.offsetMs,
      ...overrides,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    return { app, endpoint: `http://127.0.0.1:${port}/s3` };
  };

  let running = await start();
  const harness: StorageHarness = {
    get app() {
      return running.app;
    },
    get endpoint() {
      return running.endpoint;
    },
    dataDir: database.dataDir,
    db: database.db,
    clock,
    identities,
    maintenance,
    client(credentials = SERVER_CREDENTIALS) {
      const client = new S3Client({
        region: REGION,
        endpoint: running.endpoint,
        forcePathStyle: true,
        credentials: {
          accessKeyId: credentials.accessKeyId,
          secretAccessKey: credentials.secretAccessKey,
          sessionToken: 'sessionToken' in credentials ? credentials.sessionToken : undefined,
        },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 1,
      });
      clients.push(client);
      return client;
    },
    async restart() {
      await running.app.close();
      running = await start();
    },
    async close() {
      clients.forEach((client) => client.destroy());
      await running.app.close();
      await database.destroy();
    },
  };
  return harness;
}

/** Random bytes: a misplaced or missing part changes them. */
export const testBytes = (size: number): Buffer => randomBytes(size);

/** The SDK error's S3 code and HTTP status, for `expect(...).rejects` checks. */
export async function s3Failure(promise: Promise<unknown>): Promise<{ code: string; status: number | undefined }> {
  try {
    await promise;
  } catch (error) {
    const failure = error as { name: string; Code?: string; $metadata?: { httpStatusCode?: number } };
    return { code: failure.Code ?? failure.name, status: failure.$metadata?.httpStatusCode };
  }
  throw new Error('expected the request to fail');
}

/**
 * One request signed the way the S3 client signs (header form), for the cases the SDK cannot send: a tampered
 * signature, an old date, a body that does not match its hash.
 */
export async function signedFetch(
  endpoint: string,
  method: string,
  pathAndQuery: string,
  options: {
    credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    headers?: Record<string, string>;
    body?: Buffer | string;
    /** The hash to claim; default the body's true SHA-256. */
    payloadHash?: string;
    signingDate?: Date;
    tamper?: (headers: Record<string, string>) => void;
    /** Sends the request to another path than the one signed. */
    sendTo?: string;
  } = {},
): Promise<Response> {
  const { SignatureV4 } = await import('@smithy/signature-v4');
  const { Sha256 } = await import('@aws-crypto/sha256-js');
  const { createHash } = await import('node:crypto');
  const url = new URL(`${endpoint}${pathAndQuery}`);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': options.payloadHash ?? createHash('sha256').update(body ?? Buffer.alloc(0)).digest('hex'),
    ...(body !== undefined ? { 'content-length': String(body.length) } : {}),
    ...options.headers,
  };
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => {
    query[name] = value;
  });
  const signer = new SignatureV4({
    credentials: options.credentials ?? SERVER_CREDENTIALS,
    region: REGION,
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const signed = await signer.sign({ method, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, query, headers }, { signingDate: options.signingDate });
  const sent = { ...(signed.headers as Record<string, string>) };
  options.tamper?.(sent);
  delete sent.host;
  delete sent['content-length'];
  return fetch(options.sendTo ? `${endpoint}${options.sendTo}` : url, { method, headers: sent, body });
}
