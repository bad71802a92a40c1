// The S3-compatible storage endpoint used when no cloud account is configured.
export { embeddedS3, S3_CORS_ALLOWED_HEADERS, S3_CORS_EXPOSED_HEADERS, type EmbeddedS3Options } from './plugin';
export { StorageMaintenance } from './maintenance';
export type { TemporaryCredentials } from './auth';
export type { QuotaOf } from './quota';
