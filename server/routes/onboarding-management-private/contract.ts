// /docu-sign: the contract made from the answers, the consent to electronic identification, and the signature
// an SMS code to the verified phone confirms. Signing keeps the contract with its signature record under
// Divilo's seal and sends the application for review, both in one transaction: one contract per application.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parsePhoneNumberWithError } from 'libphonenumber-js/min';
import { CONTRACT_BLOCK_KINDS } from '../../../src/onboarding/contractBlocks';
import { codeStepSchema, docuSignSchema } from '../../../src/validation/onboarding';
import { toFieldErrors, validateSchema, type ValidatableSchema } from '../../../src/validation/validate';
import { ApiError } from '../../plugins/errors';
import { applicationRepository, type Application } from '../../repositories/applicationRepository';
import { contractRepository } from '../../repositories/contractRepository';
import { onboardingDocumentRepository } from '../../repositories/onboardingDocumentRepository';
import { DocumentError } from '../../services/documents';
import { evidenceAudit, preserveDocuments } from '../../services/evidence';
import { appendAuditPage, applicantName, contractContent, contractDateTime, renderContract } from '../../services/contract';
import { CONTRACT_TEXTS } from '../../services/contractTexts';
import { maskPhone } from '../../services/messaging/types';
import { applicationView, nextAfter } from '../../services/onboardingApplications';
import { codeFailure, resendTooSoon } from '../codeAnswers';
import { smsCodes } from './smsCodes';
import { onFreshApplication, saveFresh } from './saving';
import { checkTurn } from '../../services/stepSaving';
import { anyApplicationOf, applicationOf } from './tokens';
import { BEARER, RESENT } from './schemas';

const SIGNED = { type: 'object', properties: { next: { type: 'string' }, application: { type: 'object', additionalProperties: true } }, required: ['next', 'application'] } as const;
const CODE_SENT = { type: 'object', properties: { maskedPhone: { type: 'string' }, resendAfterSeconds: { type: 'integer' } }, required: ['maskedPhone', 'resendAfterSeconds'] } as const;

const FILE_NAMES = { es: 'contrato-divilo.pdf', en: 'divilo-contract.pdf' } as const;

const signed = (application: Application) => application.completedSteps.includes('docu-sign');
const signedAnswer = (application: Application) => ({ next: nextAfter('docu-sign', application), application: applicationView(application) });
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `+34611222333` → `+34******333`: the country and the last digits, as the signature record shows the phone. */
function maskedWithCountry(phone: string): string {
  const { countryCallingCode, nationalNumber } = parsePhoneNumberWithError(phone);
  return `+${countryCallingCode}${'*'.repeat(Math.max(0, nationalNumber.length - 3))}${nationalNumber.slice(-3)}`;
}

/**
 * The contract's turn: the earlier steps done, and the identity check passed (its waiting page is recorded as
 * done once the check approves); 409 STEP_OUT_OF_ORDER { currentStep } otherwise.
 */
function checkContractTurn(application: Application): void {
  checkTurn(application, 'docu-sign');
  if (!application.completedSteps.includes('check-identity-waiting')) {
    throw new ApiError(409, 'STEP_OUT_OF_ORDER', 'The identity check has not passed yet', { currentStep: 'check-identity-waiting' });
  }
}

export async function contractRoutes(app: FastifyInstance) {
  const validated = async (schema: ValidatableSchema, body: unknown) => {
    const invalid = toFieldErrors(await validateSchema(schema, body));
    if (invalid.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors: invalid });
  };
  /** The token's application; `signedToo` lets a sign that waited on another find it signed (and answer as it did). */
  const applicationFor = async (request: FastifyRequest, { signedToo = false } = {}) => {
    const application = await app.applications.find(await (signedToo ? anyApplicationOf : applicationOf)(app, request));
    if (!application) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
    return application;
  };
  const audit = (request: FastifyRequest, application: Application, action: string, details?: Record<string, unknown>) => {
    const actor = `application:${application.id}`;
    return app.auditLog.append({ actor, action, subject: actor, requestId: request.id, details }, app.clock());
  };
  const { charge: chargeSms, send: sendCode, resend } = smsCodes(app, 'contract');

  /** The signed contract: the record of who signed, when, from where and how, appended; then sealed. */
  const sealedContract = async (request: FastifyRequest, application: Application, signedAt: Date, phone: string, evidence: { kind: string; sha256: string }[]) => {
    const language = application.language;
    const texts = CONTRACT_TEXTS[language];
    const template = app.contractTemplates[language];
    const contract = await renderContract(application, { template, now: signedAt });
    const contractSha256 = sha256(contract);
    const withRecord = await appendAuditPage(contract, {
      language,
      contractTitle: template.title,
      templateVersion: template.version,
      who: applicantName(application.answers),
      idDocument: application.idDocument,
      signedAt,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      sha256OfContract: contractSha256,
      codeConfirmation: texts.record.codeConfirmation(maskedWithCountry(phone), contractDateTime(signedAt, language)),
      requestId: request.id,
      evidence,
    });
    const pdf = await app.contractSeal.seal(withRecord, { signingTime: signedAt, reason: texts.record.sealReason, location: 'Madrid, ES', contactInfo: 'Divilo' });
    return { pdf, contractSha256, sha256: sha256(pdf), templateVersion: template.version };
  };

  /**
   * Signs `application` as it is (this version of its answers makes the contract): the contract stored and the
   * application sent for review in one transaction, or nothing when another save changed the application first.
   */
  const signVersion = async (request: FastifyRequest, application: Application, signedAt: Date, phone: string) => {
    // Every document not frozen yet is copied, with its SHA-256, where the applicant cannot reach it; the
    // record page names each one by its hash.
    const documents = await app.onboardingDocuments.list(application.id);
    let preserved;
    try {
      preserved = await preserveDocuments(app.documents, application.id, documents.filter((document) => !document.evidenceKey));
    } catch (error) {
      if (error instanceof DocumentError && error.code === 'DOCUMENT_CHANGED') throw new ApiError(409, error.code, error.message);
      throw error;
    }
    const evidence = [
      ...documents.flatMap((document) => (document.evidenceKey && document.sha256 ? [{ kind: document.kind, sha256: document.sha256 }] : [])),
      ...preserved.map(({ kind, sha256 }) => ({ kind, sha256 })),
    ].sort((a, b) => a.kind.localeCompare(b.kind));
    const contract = await sealedContract(request, application, signedAt, phone, evidence);
    const outdated = new Error('a document changed meanwhile');
    const saved = await app.db
      .transaction()
      .execute(async (trx) => {
        const done = await applicationRepository(trx).save(application, { completedSteps: [...application.completedSteps, 'docu-sign'], status: 'pending-review' }, signedAt);
        if (done) {
          await contractRepository(trx).store({ applicationId: application.id, ...contract, signedAt: signedAt.toISOString(), requestId: request.id });
          // A document recorded since it was read: nothing of this signature stays, and it is worked out again.
          if ((await onboardingDocumentRepository(trx).freeze(application.id, preserved, signedAt)) !== preserved.length) throw outdated;
        }
        return done;
      })
      .catch((error: unknown) => {
        if (error === outdated) return undefined;
        throw error;
      });
    if (saved) {
      await audit(request, saved, 'onboarding.contract_signed', { sha256: contract.sha256, contractSha256: contract.contractSha256, templateVersion: contract.templateVersion });
      for (const document of preserved) await audit(request, saved, 'onboarding.evidence_frozen', evidenceAudit(document));
    }
    return saved;
  };

  /**
   * The signs of one application in this server, one after the other: a double submit waits for the first
   * sign and gets its answer instead of finding its code used.
   */
  const signing = new Map<string, Promise<unknown>>();
  const oneAtATime = async <T>(applicationId: string, work: () => Promise<T>): Promise<T> => {
    const mine = (signing.get(applicationId) ?? Promise.resolve()).catch(() => undefined).then(work);
    signing.set(applicationId, mine);
    try {
      return await mine;
    } finally {
      if (signing.get(applicationId) === mine) signing.delete(applicationId);
    }
  };

  /** Checks the code and signs; a sign of a signed application answers as the first one did. */
  const sign = async (request: FastifyRequest<{ Body: { code: string } }>) => {
    const application = await applicationFor(request, { signedToo: true });
    if (signed(application)) return signedAnswer(application);
    checkContractTurn(application);
    if (application.answers.electronicIdentificationDate === undefined) throw new ApiError(409, 'CONSENT_MISSING', 'Give the consent to electronic identification first');

    const result = await app.codes.checkLatest('contract', application.id, request.body.code.trim());
    if (result.outcome !== 'valid') {
      // Another server took the same code first (a double submit across servers): its signature answers.
      const now = await app.applications.find(application.id);
      if (now && signed(now)) return signedAnswer(now);
      await audit(request, application, `onboarding.contract_code_${result.outcome}`);
      throw codeFailure(result);
    }
    const phone = result.recipient;
    const signedAt = app.clock();
    // Another save came first: signed meanwhile (its signature answers), or signed on the application as it is now.
    return onFreshApplication(
      app,
      application.id,
      async (current) => {
        if (signed(current)) return signedAnswer(current);
        checkContractTurn(current);
        // The code confirms the phone it was sent to, which must still be the verified one as the application now
        // stands (its first attempt is the application read above): another number saved meanwhile signs nothing.
        if (phone !== current.answers.telephoneNumber) throw codeFailure({ outcome: 'expired' });
        const saved = await signVersion(request, current, signedAt, phone);
        return saved && signedAnswer(saved);
      },
      application,
    );
  };

  app.get(
    '/contract',
    {
      schema: {
        tags: ['onboarding'],
        summary: 'The contract made from the answers (PDF, in the application\'s language), to read before signing it',
        description:
          '409 STEP_OUT_OF_ORDER { currentStep } before the earlier steps and the identity check are done; ' +
          "409 APPLICATION_CLOSED { currentStep: 'welcome' } once signed (the onboarding token then reads the status only).",
        headers: BEARER,
        response: { 200: { description: 'application/pdf', type: 'string', format: 'binary' }, '4xx': { $ref: 'error#' } },
      },
    },
    async (request, reply) => {
      const application = await applicationFor(request);
      checkContractTurn(application);
      const pdf = await renderContract(application, { template: app.contractTemplates[application.language], now: app.clock() });
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${FILE_NAMES[application.language]}"`)
        .send(Buffer.from(pdf));
    },
  );

  const CONTRACT_BLOCK = {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: CONTRACT_BLOCK_KINDS },
      text: { type: 'string' },
      label: { type: 'string' },
      value: { type: 'string' },
    },
    required: ['kind'],
  } as const;

  app.get(
    '/contract/text',
    {
      schema: {
        tags: ['onboarding'],
        summary: 'The words of the contract GET contract shows, as blocks of text in reading order, for the page to show (in the application\'s language)',
        description: '409 STEP_OUT_OF_ORDER { currentStep } before the earlier steps and the identity check are done, and once signed (the signed PDF is the contract then).',
        headers: BEARER,
        response: {
          200: {
            type: 'object',
            properties: { language: { type: 'string' }, version: { type: 'string' }, blocks: { type: 'array', items: CONTRACT_BLOCK } },
            required: ['language', 'version', 'blocks'],
          },
          '4xx': { $ref: 'error#' },
        },
      },
    },
    async (request) => {
      const application = await applicationFor(request);
      if (signed(application)) throw new ApiError(409, 'STEP_OUT_OF_ORDER', 'The contract is signed', { currentStep: 'welcome' });
      checkContractTurn(application);
      const language = application.language;
      return { language, version: app.contractTemplates[language].version, blocks: contractContent(application, { template: app.contractTemplates[language], now: app.clock() }) };
    },
  );

  app.post<{ Body: { electronicIdentification?: boolean } }>(
    '/contract/consent',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Records the consent to electronic identification (its date, the first time) and texts a signing code to the verified phone',
        description:
          '400 VALIDATION_FAILED without the consent; 409 STEP_OUT_OF_ORDER { currentStep }; 423 CODE_BLOCKED after too many wrong codes; ' +
          '429 RESEND_TOO_SOON { retryAfterSeconds } within the cooldown of the last code; 429 MESSAGE_BUDGET_EXCEEDED { retryAfterSeconds }.',
        headers: BEARER,
        body: { type: 'object', additionalProperties: false, properties: { electronicIdentification: { type: 'boolean' } } },
        response: { 200: CODE_SENT, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      await validated(docuSignSchema, { electronicIdentification: request.body.electronicIdentification });
      const application = await applicationFor(request);
      checkContractTurn(application);
      const blocked = await app.codes.blockedFor('contract', application.id);
      if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });
      // Asking again (a reload, a second tab, at once) within the cooldown of the last code is refused as a resend
      // would be.
      const wait = await app.codes.claimTurn('contract', application.id);
      if (wait > 0) throw resendTooSoon(wait);
      const phone = String(application.answers.telephoneNumber);
      const ticket = await chargeSms(request, application.id, phone);
      if (application.answers.electronicIdentificationDate === undefined) {
        // The date of the first consent stays: asking again only sends a new code.
        let recorded = false;
        const consentedAt = app.clock().toISOString();
        await saveFresh(app, application.id, (current) => {
          checkContractTurn(current);
          recorded = current.answers.electronicIdentificationDate === undefined;
          return { answers: { electronicIdentificationDate: consentedAt, ...current.answers } };
        });
        if (recorded) await audit(request, application, 'onboarding.contract_consent', { electronicIdentificationDate: consentedAt });
      }
      const issued = await app.codes.issue({ purpose: 'contract', subject: application.id, recipient: phone });
      await sendCode(request, ticket, issued);
      await audit(request, application, 'onboarding.contract_code_sent');
      return { maskedPhone: maskPhone(phone), resendAfterSeconds: issued.resendAfterSeconds };
    },
  );

  app.post(
    '/contract/resend',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Texts a new signing code, once the cooldown is over (429 RESEND_TOO_SOON with retryAfterSeconds otherwise)',
        headers: BEARER,
        response: { 200: RESENT, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const application = await applicationFor(request);
      // A code only while the contract waits for its signature (not once the bank cannot serve the applicant).
      checkContractTurn(application);
      const resendAfterSeconds = await resend(request, application.id);
      await audit(request, application, 'onboarding.contract_code_sent', { resend: true });
      return { resendAfterSeconds };
    },
  );

  app.post<{ Body: { code: string } }>(
    '/contract/sign',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Signs the contract with the SMS code: keeps it sealed with its signature record and sends the application for review',
        description:
          'Codes follow the login rules (401 CODE_INVALID with attemptsLeft, 423 CODE_BLOCKED, 410 CODE_EXPIRED); 409 CONSENT_MISSING before the ' +
          'consent, STEP_OUT_OF_ORDER { currentStep } before the earlier steps, DOCUMENT_CHANGED when a document was replaced in storage after ' +
          'its check (report it again). Signing freezes every document: each is copied with its SHA-256 where the applicant cannot reach it, ' +
          'and the signature record names each hash. A sign that waited on a simultaneous one answers as it did; ' +
          "once signed, every contract route answers 409 APPLICATION_CLOSED { currentStep: 'welcome' }.",
        headers: BEARER,
        body: { type: 'object', additionalProperties: false, properties: { code: { type: 'string', maxLength: 16 } }, required: ['code'] },
        response: { 200: SIGNED, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      await validated(codeStepSchema, request.body);
      return oneAtATime(await applicationOf(app, request), () => sign(request));
    },
  );
}
