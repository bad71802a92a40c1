// What every operation works with: the settings, the metadata, the files, the clock, and the request at hand.
import type { Readable } from 'node:stream';
import type { ChunkSigning } from './chunked';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthSettings, Principal } from './auth';
import type { StorageLayout } from './files';
import type { BodyHashing } from './hashing';
import type { QuotaOf } from './quota';
import type { QuotaRepository } from './quotaRepository';
import type { StorageRepository } from './repository';
import type { StorageWriteAudit } from './writeAudit';

export interface StorageSettings {
  buckets: ReadonlySet<string>;
  maxObjectBytes: number;
  /** The path the plugin is mounted at, e.g. `/s3`. */
  prefix: string;
  /** Files of a multipart object opened before its answer starts; the rest open as the read reaches them. */
  maxOpenSegments: number;
}

export interface StorageContext {
  settings: StorageSettings;
  auth: AuthSettings;
  repository: StorageRepository;
  layout: StorageLayout;
  /** Digests of uploaded bodies, off the event loop. */
  hashing: BodyHashing;
  /** The quota of a write's area (none: no quotas), and the reservations that enforce it. */
  quotaOf?: QuotaOf;
  quotas?: QuotaRepository;
  now: () => number;
  log: FastifyBaseLogger;
  /** Where each write and delete is reported (writeAudit.ts); unset: nowhere. */
  audit?: StorageWriteAudit;
}

/** One authenticated request to a bucket or an object. */
export interface S3Request {
  bucket: string;
  /** Decoded; empty for requests to the bucket itself. */
  key: string;
  query: Record<string, string | string[]>;
  principal: Principal;
  /** The hex SHA-256 the body must have, UNSIGNED-PAYLOAD, or a STREAMING-* (aws-chunked) form. */
  payloadHash: string;
  /** With the signed aws-chunked forms: what the chunk signatures chain from. */
  chunkSigning?: ChunkSigning;
  request: FastifyRequest;
  reply: FastifyReply;
  body: Readable;
}

export function queryValue(query: Record<string, string | string[]>, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}
