import type { FastifyInstance } from 'fastify';
import { ApiError } from '../plugins/errors';
import { LEGAL_DOCUMENTS, legalSample, type LegalDocument } from '../services/legalSamples';

/**
 * `/legal/<name>.pdf` on the embedded default: the sample legal documents the app links to (privacy policy,
 * pre-contract information…). Not registered when LEGAL_BASE_URL points at the bank's own documents.
 */
export async function legalRoutes(app: FastifyInstance) {
  const made = new Map<LegalDocument, Promise<Uint8Array>>();
  app.get<{ Params: { name: string } }>(
    '/legal/:name',
    { schema: { hide: true, params: { type: 'object', properties: { name: { type: 'string', maxLength: 40 } }, required: ['name'] } } },
    async (request, reply) => {
      const name = request.params.name.replace(/\.pdf$/, '') as LegalDocument;
      if (!request.params.name.endsWith('.pdf') || !LEGAL_DOCUMENTS.includes(name)) throw new ApiError(404, 'NOT_FOUND', 'There is no such document');
      if (!made.has(name)) made.set(name, legalSample(name));
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${name}.pdf"`)
        .header('cache-control', 'public, max-age=3600')
        .send(Buffer.from(await made.get(name)!));
    },
  );
}
