import { awsServiceOrigin } from '../config/awsPartition';

/**
 * The origin the browser's storage client calls: the configured endpoint's, or Amazon S3's regional one, since
 * the client addresses buckets path-style (`https://s3.<region>.<partition's DNS suffix>/<bucket>/<key>`, see
 * createStorageClient). The server's CSP allows exactly this origin (a test checks it against the SDK's request).
 */
export function storageOrigin(config: { region: string; endpoint?: string }): string {
  return config.endpoint ? new URL(config.endpoint).origin : awsServiceOrigin('s3', config.region);
}
