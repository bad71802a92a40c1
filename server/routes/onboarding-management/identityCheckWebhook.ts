// The identity provider's answer, `POST /api/onboarding-management/identity-check/webhook`: signed with an
// HMAC-SHA256 of the raw body under IDENTITY_WEBHOOK_SECRET, in hex in `x-divilo-signature`. The signature is
// checked on the bytes received, before they are parsed: nothing unsigned reaches an application.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';
import { IdentityCheckError, type IdentityCheckErrorCode } from '../../services/identityCheck';

const SIGNATURE_HEADER = 'x-divilo-signature';
const BODY_LIMIT = 16 * 1024;

const ERROR_STATUS: Record<IdentityCheckErrorCode, number> = { APPLICATION_NOT_FOUND: 404, IDENTITY_CHECK_NOT_PENDING: 409, CONCURRENT_CHANGE: 409 };

interface WebhookBody {
  applicationId: string;
  status: 'approved' | 'rejected';
  reason?: string;
}

const invalidSignature = () => new ApiError(401, 'INVALID_SIGNATURE', 'The request is not signed by the identity provider');

export async function identityCheckWebhookRoutes(app: FastifyInstance) {
  const signed = new WeakSet<FastifyRequest>();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Here only (this plugin's scope), JSON is read as bytes so that the signature covers exactly what was sent.
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const signature = request.headers[SIGNATURE_HEADER];
    if (!app.identityCheck.webhookSigned(body as Buffer, typeof signature === 'string' ? signature : undefined)) {
      done(invalidSignature(), undefined);
      return;
    }
    signed.add(request);
    parseJson(request, (body as Buffer).toString('utf8'), done);
  });
  // A request without a JSON body never met the parser: unsigned too.
  app.addHook('preValidation', async (request) => {
    if (!signed.has(request)) throw invalidSignature();
  });

  app.post<{ Body: WebhookBody }>(
    '/identity-check/webhook',
    {
      schema: {
        tags: ['onboarding'],
        summary: "The identity provider's result for an application's pending check (IDENTITY_PROVIDER=webhook)",
        description:
          `Signed: \`${SIGNATURE_HEADER}\` is the hex HMAC-SHA256 of the raw body under IDENTITY_WEBHOOK_SECRET (401 INVALID_SIGNATURE otherwise, ` +
          'and always when no secret is configured). The same result delivered again answers 200 and changes nothing. ' +
          '404 APPLICATION_NOT_FOUND; 409 IDENTITY_CHECK_NOT_PENDING when no check of the application waits for a result.',
        headers: { type: 'object', properties: { [SIGNATURE_HEADER]: { type: 'string', maxLength: 128 } } },
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            applicationId: { type: 'string', pattern: '^[\\w-]{1,64}$' },
            status: { type: 'string', enum: ['approved', 'rejected'] },
            reason: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$' },
          },
          required: ['applicationId', 'status'],
        },
        response: {
          200: { type: 'object', properties: { applicationId: { type: 'string' }, status: { type: 'string' } }, required: ['applicationId', 'status'] },
          '4xx': { $ref: 'error#' },
        },
      },
    },
    async (request) => {
      const { applicationId, status, reason } = request.body;
      try {
        await app.identityCheck.recordIdentityResult(applicationId, { status, reason, provider: 'webhook' }, request.id);
      } catch (error) {
        if (error instanceof IdentityCheckError) throw new ApiError(ERROR_STATUS[error.code], error.code, error.message);
        throw error;
      }
      return { applicationId, status };
    },
  );
}
