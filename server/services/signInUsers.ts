// The sign-in user an application made at its password step, and how it goes when the application ends without
// becoming a customer (rejected, expired): removed, so that the ID document it is named by is free again.
import type { Application } from '../repositories/applicationRepository';
import { IdentityError, type IdentityService } from './identity';

/**
 * Removes the application's sign-in user if it is still the one the application made (the same `sub`); answers
 * whether one was removed. A user of that name made by someone else (a customer, a later applicant) stays.
 */
export async function removeSignInUser(identity: Pick<IdentityService, 'getUser' | 'deleteUser'>, application: Pick<Application, 'idDocument' | 'answers'>): Promise<boolean> {
  const sub = application.answers.identityUserSub;
  if (typeof sub !== 'string') return false;
  const user = await identity.getUser(application.idDocument);
  if (!user || user.sub !== sub) return false;
  try {
    await identity.deleteUser(user.username);
  } catch (error) {
    // Removed meanwhile (another server finishing the same work): what was asked is done.
    if (error instanceof IdentityError && error.code === 'USER_NOT_FOUND') return false;
    throw error;
  }
  return true;
}
