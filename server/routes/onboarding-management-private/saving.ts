// Saving a change the applicant asked for, through the one retry loop every change of an application takes
// (services/applicationChanges.ts), with the API's answers when the application is gone or keeps changing.
import type { FastifyInstance } from 'fastify';
import type { Application, ApplicationChanges } from '../../repositories/applicationRepository';
import { changeApplication } from '../../services/applicationChanges';
import { API_REFUSALS } from '../../services/stepSaving';

/** `changeApplication` on the application `id`: 404 APPLICATION_NOT_FOUND, or 409 CONCURRENT_CHANGE after three tries. */
export function onFreshApplication<T>(app: FastifyInstance, id: string, attempt: (current: Application) => Promise<T | undefined>, first?: Application): Promise<T> {
  return changeApplication(app.applications, id, API_REFUSALS, attempt, first);
}

/** Saves `changes(current)` on the application `id`; `changes` may throw to refuse the change as it now stands. */
export function saveFresh(app: FastifyInstance, id: string, changes: (current: Application) => ApplicationChanges): Promise<Application> {
  return onFreshApplication(app, id, (current) => app.applications.save(current, changes(current), app.clock()));
}
