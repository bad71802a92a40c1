// Every change of an application (an applicant's save, an identity check's result, a reviewer's decision) is
// worked out on the application as it is now and saved on its version, again when another save came first (two
// tabs, a retried request, a webhook delivered twice), so no save is lost and none applies twice.
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';

/** What the caller throws, in its own terms, when the application is gone or kept changing under every try. */
export interface ChangeRefusals {
  missing: () => Error;
  changed: () => Error;
}

const TRIES = 3;

/**
 * Runs `attempt` on the application `id` as it is: it works the change out and saves it on that version, answering
 * `undefined` when another save came first; then it runs again on a fresh read, three times at most. `attempt`
 * may throw to refuse the change as it now stands. `first`: the application as the caller read it already, used
 * for the first attempt.
 */
export async function changeApplication<T>(
  applications: Pick<ApplicationRepository, 'find'>,
  id: string,
  refusals: ChangeRefusals,
  attempt: (current: Application) => Promise<T | undefined>,
  first?: Application,
): Promise<T> {
  for (let tries = 0; tries < TRIES; tries += 1) {
    const current = tries === 0 && first ? first : await applications.find(id);
    if (!current) throw refusals.missing();
    const done = await attempt(current);
    if (done !== undefined) return done;
  }
  throw refusals.changed();
}
