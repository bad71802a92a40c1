// A person's rights over their data, answered from the back office: a copy of everything held about them (GDPR
// art. 15) and a request to erase it (GDPR art. 17). Who may is decided by one function of the roles each
// (src/config/staffRights.ts); both are audited with who asked.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../apiError';
import type { Application } from '../../repositories/applicationRepository';
import { answerDue, answerErasureRequest, ErasureRequestError } from '../../services/erasureRequests';
import { EXPORT_JSON, exportPersonalData } from '../../services/personalDataExport';
import { zipArchive } from '../../services/zipArchive';
import { mayAnswerErasureRequests, mayExportPersonalData } from '../../../src/config/staffRights';
import type { StaffRole } from '../../staffRoles';

const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$' } }, required: ['id'] } as const;
const ERRORS = { '4xx': { $ref: 'error#' }, '5xx': { $ref: 'error#' } } as const;

interface PersonalDataSettings {
  /** A preHandler refusing (403, audited) a member without the right `may` decides. */
  allowWhen: (may: (roles: readonly string[]) => boolean, roles: StaffRole[]) => (request: FastifyRequest) => Promise<void>;
  /** The application, or 404 as if there were none (also a blocked one, to anyone but compliance). */
  applicationOrRefuse: (id: string, request: FastifyRequest) => Promise<{ application: Application }>;
  localesDir: string;
}

export function personalDataRoutes(area: FastifyInstance, { allowWhen, applicationOrRefuse, localesDir }: PersonalDataSettings): void {
  area.get<{ Params: { id: string } }>(
    '/applications/:id/personal-data',
    {
      preHandler: allowWhen(mayExportPersonalData, ['administrator', 'compliance']),
      schema: {
        tags: ['back office'],
        summary: "Everything held about the application's applicant (GDPR art. 15), their other applications too, as a ZIP: personal-data.json in their language and the files it names",
        description: 'Leaves out what is the bank\'s own (internal notes, reasons, risk, the identity check\'s flags). 404 APPLICATION_NOT_FOUND, 409 EVIDENCE_CHANGED when a file kept is not what was recorded.',
        params: ID_PARAMS,
        response: ERRORS,
      },
    },
    async (request, reply) => {
      const { application } = await applicationOrRefuse(request.params.id, request);
      let exported;
      try {
        exported = await exportPersonalData(
          { applications: area.applications, auditLog: area.auditLog, contracts: area.contracts, documents: (id) => area.onboardingDocuments.list(id), storage: area.documents, localesDir: localesDir },
          application.id,
          `staff:${request.staff!.username}`,
          area.clock(),
        );
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'NoSuchKey' || name === 'PreconditionFailed' || (error instanceof Error && /does not match/.test(error.message))) {
          throw new ApiError(409, 'EVIDENCE_CHANGED', 'A file kept for this person is missing or not what was recorded: the export would not be complete');
        }
        throw error;
      }
      const archive = zipArchive([{ name: EXPORT_JSON, bytes: Buffer.from(JSON.stringify(exported.data, null, 2)) }, ...exported.files.map((file) => ({ name: file.path, bytes: file.bytes }))]);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="personal-data-${application.id}.zip"`)
        .header('x-content-type-options', 'nosniff')
        .send(archive);
    },
  );

  area.post<{ Params: { id: string }; Body: { receivedOn: string } }>(
    '/applications/:id/erasure-request',
    {
      preHandler: allowWhen(mayAnswerErasureRequests, ['administrator', 'compliance']),
      schema: {
        tags: ['back office'],
        summary: "Records the applicant's request to erase their data (GDPR art. 17) and answers it for each of their applications: erased, or kept with the legal ground",
        description:
          'An application in progress (never sent to the bank) is erased at once; an approved, rejected or signed one is kept under Ley 10/2010 art. 25 / Regulation (EU) 2024/1624 art. 77 and the refusal recorded. ' +
          '400 INVALID_RECEIVED_DATE (not a date, after today), 404 APPLICATION_NOT_FOUND, 409 CONCURRENT_CHANGE.',
        params: ID_PARAMS,
        body: { type: 'object', properties: { receivedOn: { type: 'string', minLength: 1, maxLength: 20 } }, required: ['receivedOn'], additionalProperties: false },
        response: {
          200: {
            type: 'object',
            properties: {
              answerDue: { type: 'string' },
              outcomes: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { applicationId: { type: 'string' }, outcome: { type: 'string', enum: ['erased', 'refused', 'already-erased'] }, ground: { type: 'string' }, law: { type: 'string' } },
                  required: ['applicationId', 'outcome'],
                },
              },
            },
            required: ['answerDue', 'outcomes'],
          },
          ...ERRORS,
        },
      },
    },
    async (request) => {
      const { application } = await applicationOrRefuse(request.params.id, request);
      try {
        const outcomes = await answerErasureRequest(
          { db: area.db, identity: area.identity, auditLog: area.auditLog, storage: area.documents },
          application.id,
          { receivedOn: request.body.receivedOn, actor: `staff:${request.staff!.username}` },
          area.clock(),
        );
        return { answerDue: answerDue(request.body.receivedOn), outcomes };
      } catch (error) {
        if (error instanceof ErasureRequestError) throw new ApiError(error.code === 'CONCURRENT_CHANGE' ? 409 : 400, error.code, error.message);
        throw error;
      }
    },
  );
}
