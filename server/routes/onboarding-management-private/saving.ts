// Saving a change the applicant asked for: worked out on the application as it is now and saved on its version,
// again when another save came first (two tabs, a retried request), so no save is lost and none applies twice.
// Every save of an application in the wizard goes through the one loop here.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../plugins/errors';
import type { Application, ApplicationChanges } from '../../repositories/applicationRepository';

/**
 * Runs `attempt` on the application `id` as it is: it works the change out and saves it on that version, answering
 * `undefined` when another save came first; then it runs again on a fresh read, three times at most (409
 * CONCURRENT_CHANGE after). `attempt` may throw to refuse the change as it now stands. `first`: the application
 * as the caller read it already, used for the first attempt.
 */
export async function onFreshApplication<T>(app: FastifyInstance, id: string, attempt: (current: Application) => Promise<T | undefined>, first?: Application): Promise<T> {
  for (let tries = 0; tries < 3; tries += 1) {
    const current = tries === 0 && first ? first : await app.applications.find(id);
    if (!current) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
    const done = await attempt(current);
    if (done !== undefined) return done;
  }
  throw new ApiError(409, 'CONCURRENT_CHANGE', 'The application changed meanwhile: try again');
}

/** Saves `changes(current)` on the application `id`; `changes` may throw to refuse the change as it now stands. */
export function saveFresh(app: FastifyInstance, id: string, changes: (current: Application) => ApplicationChanges): Promise<Application> {
  return onFreshApplication(app, id, (current) => app.applications.save(current, changes(current), app.codes.now()));
}
