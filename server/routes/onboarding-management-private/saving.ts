// Saving a change the applicant asked for: worked out on the application as it is now and saved on its version,
// again when another save came first (two tabs, a retried request), so no save is lost and none applies twice.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../plugins/errors';
import type { Application } from '../../repositories/applicationRepository';

/** Saves `changes(current)` on the application `id`; `changes` may throw to refuse the change as it now stands. */
export async function saveFresh(app: FastifyInstance, id: string, changes: (current: Application) => Partial<Application>): Promise<Application> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const current = await app.applications.find(id);
    if (!current) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
    const saved = await app.applications.save(current, changes(current), app.codes.now());
    if (saved) return saved;
  }
  throw new ApiError(409, 'CONCURRENT_CHANGE', 'The application changed meanwhile: try again');
}
