// The wizard's steps that save answers: one route each for every step of STEP_SCHEMAS (src/onboarding/
// stepSchemas.ts), whose shared schema gives the body's fields and JSON shape (bodyShape.ts); the path of its call
// comes from the flow (src/onboarding/flow.ts). The save itself is the service's (services/stepSaving.ts).
import type { FastifyInstance } from 'fastify';
import { stepById } from '../../../src/onboarding/flow';
import { STEP_SCHEMAS, stepSchema, type AnswersStepId } from '../../../src/onboarding/stepSchemas';
import { declarationOf, saveStepAnswers } from '../../services/stepSaving';
import { bodyFieldsOf, bodyShapeOf } from './bodyShape';
import { openApplicationOf } from './tokens';
import { BEARER } from './schemas';

/** Registers one POST route per declared step, at the path flow.ts gives it. */
export async function stepRoutes(app: FastifyInstance) {
  for (const step of Object.keys(STEP_SCHEMAS) as AnswersStepId[]) {
    const declaration = declarationOf(step);
    const flowStep = stepById(step)!;
    // The schema's fields (the rules in it that read saved answers or the clock do not change them).
    const shapeSchema = stepSchema(step, { saved: {}, now: () => new Date(0) });
    const fields = bodyFieldsOf(shapeSchema);
    const path = `/${flowStep.endpoint!.replace(/^onboarding-management-private\//, '')}`;
    app.post<{ Body: Record<string, unknown> }>(
      path,
      {
        schema: {
          tags: ['onboarding'],
          summary: `Saves the ${declaration.step} step and answers the next one`,
          description:
            'Field errors as 400 VALIDATION_FAILED { errors: [{ field, id, values? }] }; 409 STEP_OUT_OF_ORDER { currentStep } or STEP_NOT_ON_PATH; ' +
            '409 CONFIRMATION_REQUIRED { entity } for an answer that would close the application, until it is sent again confirmed' +
            (declaration.frozen ? `; 409 ${declaration.frozen.code} once the identity check started (until a rejection): the same answers again are fine.` : '.'),
          headers: BEARER,
          body: bodyShapeOf(shapeSchema),
          response: { 200: { type: 'object', properties: { next: { type: 'string' }, application: { type: 'object', additionalProperties: true } }, required: ['next', 'application'] }, '4xx': { $ref: 'error#' } },
        },
      },
      async (request) => {
        const before = await openApplicationOf(app, request);
        // Fields not sent are empty, as on a blank form.
        const body = Object.fromEntries(fields.map(({ name, list, flag }) => [name, request.body[name] ?? (list ? [] : flag ? undefined : '')]));
        return saveStepAnswers(app, step, before, body, request.id);
      },
    );
  }
}
