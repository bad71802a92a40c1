// The S3-compatible storage endpoint used when no cloud account is configured.
export { embeddedS3, S3_CORS_ALLOWED_HEADERS, S3_CORS_EXPOSED_HEADERS, type EmbeddedS3Options } from './plugin';
export { StorageMaintenance, type SweepReport } from './maintenance';
export type { AwsCredentials, ResolveTemporaryCredentials, TemporaryCredentials } from './auth';
export type { StorageTables } from './tables';
export type { AreaQuota, QuotaOf } from './quota';
