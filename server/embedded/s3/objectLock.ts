// Object Lock retention, as S3 answers PutObjectRetention and GetObjectRetention (`PUT|GET /{key}?retention`): per
// object, set by the server alone, a COMPLIANCE retention only ever moved later. While it holds, the object can be
// neither deleted nor replaced (repository.ts); S3 would keep the locked version beside a new one or a delete marker,
// the embedded endpoint keeps one version and refuses instead.
import type { S3Request, StorageContext } from './context';
import { checkBodyDigest } from './deleteObjects';
import { errors } from './errors';
import { parseXmlBody, readSmallBody } from './http';
import type { LockMode } from './repository';
import { textElement, xmlDocument } from './xml';

const MAX_BODY_BYTES = 4096;
const MODES: readonly LockMode[] = ['GOVERNANCE', 'COMPLIANCE'];

/** Only the server's own credentials may set or read an object's retention (an applicant's role is not given it). */
function requireServer(s3: S3Request): void {
  if (s3.principal.kind !== 'server') throw errors.accessDenied();
}

export async function putObjectRetention(context: StorageContext, s3: S3Request) {
  requireServer(s3);
  const body = await readSmallBody(s3, MAX_BODY_BYTES);
  checkBodyDigest(s3, body);
  const root = parseXmlBody(body, 'Retention');
  const mode = root.children.find((child) => child.name === 'Mode')?.text.trim();
  const until = root.children.find((child) => child.name === 'RetainUntilDate')?.text.trim();
  if (!mode || !until || !(MODES as readonly string[]).includes(mode)) throw errors.malformedXml();
  const retainUntil = new Date(until);
  if (Number.isNaN(retainUntil.getTime())) throw errors.malformedXml();
  const now = new Date(context.now());
  if (retainUntil.getTime() <= now.getTime()) throw errors.invalidArgument('The retain until date must be in the future!', 'RetainUntilDate');
  const outcome = await context.repository.objects.setRetention(s3.bucket, s3.key, { mode: mode as LockMode, retainUntil }, now);
  if (outcome === 'no-such-key') throw errors.noSuchKey(s3.key);
  // S3's answer to shortening a COMPLIANCE retention, or changing its mode.
  if (outcome === 'would-shorten') throw errors.objectLocked();
  return s3.reply.code(200).send();
}

export async function getObjectRetention(context: StorageContext, s3: S3Request) {
  requireServer(s3);
  const object = await context.repository.objects.find(s3.bucket, s3.key);
  if (!object) throw errors.noSuchKey(s3.key);
  if (!object.retention) throw errors.noSuchObjectLockConfiguration();
  const { mode, retainUntil } = object.retention;
  return s3.reply
    .code(200)
    .type('application/xml')
    .send(xmlDocument('Retention', textElement('Mode', mode) + textElement('RetainUntilDate', retainUntil.toISOString())));
}
