// S3's error answers: `<Error><Code/><Message/>...</Error>` with the status S3 gives each code, so the SDK
// raises its usual exceptions (error.name is the code).

export class S3Error extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode: number,
    /** Extra elements S3 adds to some errors (Key, UploadId, RequestTime...). */
    readonly details: Record<string, string> = {},
  ) {
    super(message);
    this.name = code;
  }
}

const S3_SIGNATURE_MESSAGE =
  'The request signature we calculated does not match the signature you provided. Check your key and signing method.';

export const errors = {
  accessDenied: (message = 'Access Denied') => new S3Error('AccessDenied', message, 403),
  signatureDoesNotMatch: () => new S3Error('SignatureDoesNotMatch', S3_SIGNATURE_MESSAGE, 403),
  invalidAccessKeyId: () => new S3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', 403),
  invalidToken: () => new S3Error('InvalidToken', 'The provided token is malformed or otherwise invalid.', 400),
  expiredToken: () => new S3Error('ExpiredToken', 'The provided token has expired.', 400),
  requestTimeTooSkewed: (requestTime: string, serverTime: string, maxSkewMs: number) =>
    new S3Error('RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', 403, {
      RequestTime: requestTime,
      ServerTime: serverTime,
      MaxAllowedSkewMilliseconds: String(maxSkewMs),
    }),
  authorizationHeaderMalformed: (message: string) => new S3Error('AuthorizationHeaderMalformed', message, 400),
  authorizationQueryParametersError: (message: string) => new S3Error('AuthorizationQueryParametersError', message, 400),
  invalidRequest: (message: string) => new S3Error('InvalidRequest', message, 400),
  slowDown: () => new S3Error('SlowDown', 'Please reduce your request rate.', 503),
  /** S3's answer when it cannot serve for now (here: its database is unreachable); the SDKs retry it. */
  serviceUnavailable: () => new S3Error('ServiceUnavailable', 'Service is unable to handle request.', 503),
  /** `argumentName`: the parameter at fault, as S3 names it in the answer (`<ArgumentName>`). */
  invalidArgument: (message: string, argumentName?: string) =>
    new S3Error('InvalidArgument', message, 400, argumentName === undefined ? {} : { ArgumentName: argumentName }),
  invalidUri: () => new S3Error('InvalidURI', "Couldn't parse the specified URI.", 400),
  keyTooLong: () => new S3Error('KeyTooLongError', 'Your key is too long', 400),
  noSuchBucket: (bucket: string) => new S3Error('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: bucket }),
  noSuchKey: (key: string) => new S3Error('NoSuchKey', 'The specified key does not exist.', 404, { Key: key }),
  noSuchObjectLockConfiguration: () => new S3Error('NoSuchObjectLockConfiguration', 'The specified object does not have a ObjectLock configuration', 404),
  /** A delete or a replacement of an object under Object Lock retention. */
  objectLocked: () => new S3Error('AccessDenied', 'Access Denied because object protected by object lock.', 403),
  noSuchUpload: (uploadId: string) =>
    new S3Error(
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      404,
      { UploadId: uploadId },
    ),
  invalidPart: (partNumber: number) =>
    new S3Error(
      'InvalidPart',
      "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
      400,
      { PartNumber: String(partNumber) },
    ),
  invalidPartOrder: () =>
    new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.', 400),
  entityTooSmall: (partNumber: number) =>
    new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', 400, {
      PartNumber: String(partNumber),
      MinSizeAllowed: String(5 * 1024 * 1024),
    }),
  entityTooLarge: (maxBytes: number) =>
    new S3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed object size.', 400, { MaxSizeAllowed: String(maxBytes) }),
  malformedXml: () =>
    new S3Error('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400),
  missingContentLength: () => new S3Error('MissingContentLength', 'You must provide the Content-Length HTTP header.', 411),
  contentSha256Mismatch: (clientHash: string, serverHash: string) =>
    new S3Error('XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", 400, {
      ClientComputedContentSHA256: clientHash,
      S3ComputedContentSHA256: serverHash,
    }),
  badDigest: (what: string) => new S3Error('BadDigest', `The ${what} you specified did not match the calculated checksum.`, 400),
  invalidDigest: (what: string) => new S3Error('InvalidDigest', `The ${what} you specified is not valid.`, 400),
  invalidRange: (size: number) => new S3Error('InvalidRange', 'The requested range is not satisfiable', 416, { ActualObjectSize: String(size) }),
  preconditionFailed: (condition: string) =>
    new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, { Condition: condition }),
  conditionalRequestConflict: () =>
    new S3Error(
      'ConditionalRequestConflict',
      'A conflicting operation occurred. If using PutObject you can retry the request. If using multipart upload you should initiate another CreateMultipartUpload request and re-upload each part.',
      409,
    ),
  notImplemented: (what: string) => new S3Error('NotImplemented', `${what} is not implemented by this endpoint.`, 501),
  methodNotAllowed: () => new S3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405),
  internal: () => new S3Error('InternalError', 'We encountered an internal error. Please try again.', 500),
  /** MinIO's answer when its disks are full (S3 itself never says so): 507, which the SDKs do not retry. */
  storageFull: () => new S3Error('XMinioStorageFull', 'The storage has no free space left; nothing of this request was kept. Try again later.', 507),
};
