import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { STORAGE_AREAS } from '../../server/awsPermissions';

/**
 * The headers a browser's upload must be able to read (lib-storage needs ETag to finish a multipart upload):
 * the same the embedded endpoint exposes, S3_CORS_EXPOSED_HEADERS, which a test compares.
 */
export const EXPOSED_HEADERS = [
  'etag', 'x-amz-version-id', 'x-amz-checksum-crc32', 'x-amz-checksum-crc32c', 'x-amz-checksum-crc64nvme',
  'x-amz-checksum-sha1', 'x-amz-checksum-sha256', 'x-amz-checksum-type', 'content-range', 'accept-ranges',
  'content-length', 'content-type', 'content-disposition', 'last-modified', 'x-amz-request-id', 'x-amz-id-2', 'date',
];

/** How long a version replaced or deleted in an applicant's area is kept before it expires (a mistake's way back). */
export const REPLACED_VERSIONS_KEPT_DAYS = 30;

/**
 * Applicants' documents and the server's evidence: private, encrypted, reachable from the app's origin, abandoned
 * uploads removed; versioned and made with Object Lock, so that what is overwritten or deleted can be brought back
 * and a retention can be put on an object.
 */
export class Documents extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: { appOrigin: string }) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // S3-managed keys: a customer-managed KMS key would add kms actions to both roles (docs/storage.md).
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Browsers upload straight to the bucket with the applicant's temporary credentials.
      cors: [
        {
          allowedOrigins: [props.appOrigin],
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD, s3.HttpMethods.PUT, s3.HttpMethods.POST, s3.HttpMethods.DELETE],
          allowedHeaders: ['*'],
          exposedHeaders: EXPOSED_HEADERS,
          maxAge: 600,
        },
      ],
      // Every overwrite or delete keeps the version before it. Object Lock can only be turned on with versioning and
      // not be turned off; it has no default retention: each object's is set when it is written, where one applies.
      versioned: true,
      objectLockEnabled: true,
      lifecycleRules: [
        // An upload the browser never finished (closed tab, lost signal) keeps its parts, billed, until removed.
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Applicants' areas are written and cleaned up all the time: their old versions go after a while (and the
        // delete markers left with nothing under them).
        {
          id: 'applicant-areas-old-versions',
          prefix: STORAGE_AREAS.applicants,
          noncurrentVersionExpiration: Duration.days(REPLACED_VERSIONS_KEPT_DAYS),
          expiredObjectDeleteMarker: true,
        },
        // Evidence is never replaced; it is deleted only with an application erased (abandoned, or nothing to keep it
        // for). Its versions then go as the applicants' do, but for those under Object Lock, which stay until their
        // retain-until date whatever is deleted (docs/storage.md, "Versions").
        {
          id: 'evidence-erased-versions',
          prefix: STORAGE_AREAS.evidence,
          noncurrentVersionExpiration: Duration.days(REPLACED_VERSIONS_KEPT_DAYS),
          expiredObjectDeleteMarker: true,
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}

/** The trail's files go to Glacier Deep Archive after a quarter (read within 12 hours from then on)... */
export const TRAIL_ARCHIVE_DAYS = 90;
/** ...and are deleted after ten years and a few days: Ley 10/2010 art. 25's ten years, counted from the change. */
export const TRAIL_KEEP_DAYS = 10 * 365 + 3;

/**
 * Every write and delete of an object in the documents bucket, by whoever made it (an applicant's identity-pool
 * credentials included), recorded by CloudTrail data events in a bucket of their own: what the embedded
 * endpoint writes to the audit log (docs/storage.md, "Who changed what").
 */
export class StorageChanges extends Construct {
  readonly trail: cloudtrail.Trail;

  constructor(scope: Construct, id: string, props: { documents: s3.IBucket }) {
    super(scope, id);
    this.trail = new cloudtrail.Trail(this, 'Trail', { isMultiRegionTrail: false, includeGlobalServiceEvents: false, enableFileValidation: true });
    this.trail.addS3EventSelector([{ bucket: props.documents }], { readWriteType: cloudtrail.ReadWriteType.WRITE_ONLY, includeManagementEvents: false });
    // The trail's own bucket (made by the Trail, kept as it is): its files are read at once when a recent change is
    // looked into, rarely after a quarter, and kept as long as the law keeps the records they are about
    // (docs/deploy.md, "The trail's files").
    (this.trail.node.findChild('S3') as s3.Bucket).addLifecycleRule({
      id: 'archive-then-expire',
      transitions: [{ storageClass: s3.StorageClass.DEEP_ARCHIVE, transitionAfter: Duration.days(TRAIL_ARCHIVE_DAYS) }],
      expiration: Duration.days(TRAIL_KEEP_DAYS),
    });
  }
}
