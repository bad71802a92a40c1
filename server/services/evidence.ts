// The evidence the bank relies on, frozen once it has been relied on: the identity photos when the identity
// check starts, every other document (and the photos, if not already) at signature. Freezing copies each
// checked document into the server's own area of the bucket with its SHA-256 (documents.ts, preserve); from
// then on the bank's review reads those copies, and the applicant can no longer report another document of
// that kind. Which kinds are frozen follows from the application alone, so the rule is checked on the same
// version of it that a document's record or a check's start is saved on (one conditional save).
import type { StepId } from '../../src/onboarding/flow';
import type { DocumentKind } from '../../src/validation/documentLimits';
import { IDENTITY_IMAGE_KINDS } from '../../src/validation/onboarding';
import type { Application } from '../repositories/applicationRepository';
import type { FrozenDocument, OnboardingDocument } from '../repositories/onboardingDocumentRepository';
import type { DocumentService } from './documents';
import { identityCheckOf } from './identityCheck';

const isIdentityKind = (kind: string) => (IDENTITY_IMAGE_KINDS as readonly string[]).includes(kind);

/** Signed, or no longer in progress: every document is final. */
export const allEvidenceFrozen = (application: Pick<Application, 'status' | 'completedSteps'>) =>
  application.status !== 'in-progress' || application.completedSteps.includes('docu-sign');

/**
 * The identity check started and was not rejected: the photos it looks at, and the identity data they must
 * match, stay as they are (a rejection sends the applicant back to both).
 */
export const identityFrozen = (application: Pick<Application, 'status' | 'completedSteps' | 'answers'>) => {
  const check = identityCheckOf(application);
  return allEvidenceFrozen(application) || (check !== undefined && check.status !== 'rejected');
};

/** The step each document other than the photos is asked for on (a new kind must name its step to compile). */
const DOCUMENT_STEP: Record<Exclude<DocumentKind, (typeof IDENTITY_IMAGE_KINDS)[number]>, StepId> = {
  model036: 'tax-registration-income',
  companyDeeds: 'articles-of-association',
  articlesOfIncorporation: 'articles-of-association',
  model200: 'corporate-tax',
};

/**
 * Sent back by the bank after signing, the applicant may replace only the documents of the steps it reopened:
 * the others were relied on and stay as they were.
 */
function reopenedFor(application: Pick<Application, 'answers'>, kind: string): boolean {
  const moreInfo = (application.answers.review as { moreInfo?: { steps: string[] } } | undefined)?.moreInfo;
  return moreInfo === undefined || moreInfo.steps.includes(DOCUMENT_STEP[kind as keyof typeof DOCUMENT_STEP]);
}

/** Whether the application's document of `kind` can no longer change. */
export const evidenceFrozen = (application: Pick<Application, 'status' | 'completedSteps' | 'answers'>, kind: string) =>
  isIdentityKind(kind) ? identityFrozen(application) : allEvidenceFrozen(application) || !reopenedFor(application, kind);

/** Copies each document into the server's own area: what freezing records, document by document. */
export async function preserveDocuments(
  storage: Pick<DocumentService, 'preserve'>,
  applicationId: string,
  documents: OnboardingDocument[],
): Promise<(FrozenDocument & { size: number })[]> {
  const preserved = [];
  for (const document of documents) {
    const evidence = await storage.preserve(applicationId, document.kind, document.key, document.etag);
    preserved.push({ kind: document.kind, key: document.key, etag: document.etag, ...evidence });
  }
  return preserved;
}

/** The audit entry of one frozen document: which one, where its copy is, its size and SHA-256. */
export const evidenceAudit = (document: FrozenDocument & { size: number }) => ({
  kind: document.kind,
  source: document.key,
  key: document.evidenceKey,
  size: document.size,
  sha256: document.sha256,
});
