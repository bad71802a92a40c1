// The identity provider's answer, `POST /api/onboarding-management/identity-check/webhook`: signed in
// `x-divilo-signature` as `t=<signing time>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under IDENTITY_WEBHOOK_SECRET.
// The signature is checked on the bytes received, before they are parsed: nothing unsigned reaches an application.
// A delivery is taken once and only within five minutes of its signing, and names the check it is about, so an old
// signed answer sent again (by anyone who kept it) decides nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';
import { webhookDeliveryRepository } from '../../repositories/webhookDeliveryRepository';
import { IdentityCheckError, WEBHOOK_TOLERANCE_SECONDS, type IdentityCheckErrorCode } from '../../services/identityCheck';

const SIGNATURE_HEADER = 'x-divilo-signature';
const BODY_LIMIT = 16 * 1024;

const ERROR_STATUS: Record<IdentityCheckErrorCode, number> = { APPLICATION_NOT_FOUND: 404, IDENTITY_CHECK_NOT_PENDING: 409, CONCURRENT_CHANGE: 409 };

interface WebhookBody {
  applicationId: string;
  checkId?: string;
  status: 'approved' | 'rejected';
  reason?: string;
}

const invalidSignature = () => new ApiError(401, 'INVALID_SIGNATURE', 'The request is not signed by the identity provider');

export async function identityCheckWebhookRoutes(app: FastifyInstance) {
  /** The signature of each request whose body it covers, made recently enough. */
  const signed = new WeakMap<FastifyRequest, { signature: string; signedAt: number }>();
  const deliveries = webhookDeliveryRepository(app.db);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Here only (this plugin's scope), JSON is read as bytes so that the signature covers exactly what was sent.
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const header = request.headers[SIGNATURE_HEADER];
    const checked = app.identityCheck.webhookSignature(body as Buffer, typeof header === 'string' ? header : undefined);
    if (checked.verdict !== 'valid') {
      done(checked.verdict === 'expired' ? new ApiError(401, 'SIGNATURE_EXPIRED', 'The request was signed too long ago') : invalidSignature(), undefined);
      return;
    }
    signed.set(request, checked);
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
          `Signed: \`${SIGNATURE_HEADER}\` is \`t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\` under IDENTITY_WEBHOOK_SECRET ` +
          `(401 INVALID_SIGNATURE otherwise, and always when no secret is configured); 401 SIGNATURE_EXPIRED when t is more than ${WEBHOOK_TOLERANCE_SECONDS} s ` +
          "from the server's time; 409 WEBHOOK_REPLAYED for a delivery taken already (sign each delivery anew). `checkId` is the check's id " +
          '(GET identity-check); 409 IDENTITY_CHECK_NOT_PENDING when that check of the application does not wait for a result. The same result ' +
          'for the same check delivered again answers 200 and changes nothing. 404 APPLICATION_NOT_FOUND.',
        headers: { type: 'object', properties: { [SIGNATURE_HEADER]: { type: 'string', maxLength: 128 } } },
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            applicationId: { type: 'string', pattern: '^[\\w-]{1,64}$' },
            checkId: { type: 'string', pattern: '^[\\w-]{1,64}$' },
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
      const { applicationId, checkId, status, reason } = request.body;
      const { signature, signedAt } = signed.get(request)!;
      // Kept for as long as its signing time could still pass, from either side of the server's clock.
      if (!(await deliveries.take(signature, new Date((signedAt + 2 * WEBHOOK_TOLERANCE_SECONDS) * 1000)))) {
        throw new ApiError(409, 'WEBHOOK_REPLAYED', 'This delivery was received already');
      }
      try {
        // No id: only a check started before checks had ids can take it.
        await app.identityCheck.recordIdentityResult(applicationId, { status, reason, provider: 'webhook', checkId: checkId ?? null }, request.id);
      } catch (error) {
        if (error instanceof IdentityCheckError) throw new ApiError(ERROR_STATUS[error.code], error.code, error.message);
        throw error;
      }
      return { applicationId, status };
    },
  );
}
