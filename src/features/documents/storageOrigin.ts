/**
 * The origin the browser's storage client calls: the configured endpoint's, or Amazon S3's regional one, since
 * the client addresses buckets path-style (`https://s3.<region>.amazonaws.com/<bucket>/<key>`, see
 * createStorageClient). The server's CSP allows exactly this origin (a test checks it against the SDK's request).
 */
export function storageOrigin(config: { region: string; endpoint?: string }): string {
  return config.endpoint ? new URL(config.endpoint).origin : `https://s3.${config.region}.amazonaws.com`;
}
