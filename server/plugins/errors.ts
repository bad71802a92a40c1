import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** A failure the client caused, with the stable code it gets back. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * Every error leaves as JSON `{ code, message }` with a stable code: schema failures as VALIDATION_FAILED
 * with the fields, anything unexpected as INTERNAL_ERROR with no detail (the detail goes to the log).
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send({ code: error.code, message: error.message, ...error.details });
    }
    if ('validation' in error && error.validation) {
      return reply.status(400).send({
        code: 'VALIDATION_FAILED',
        message: 'The request is not valid',
        errors: error.validation.map((issue) => ({
          field: String(issue.instancePath || (issue.params as { missingProperty?: string }).missingProperty || '').replace(/^\//, ''),
          rule: issue.keyword,
        })),
      });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({ code: error.code ?? 'BAD_REQUEST', message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ code: 'INTERNAL_ERROR', message: 'Something went wrong' });
  });

});
