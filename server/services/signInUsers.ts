// Who holds an ID document, and the sign-in user named by it. An applicant's password is kept sealed until their
// identity is verified (by the identity provider, or by the bank's reviewer); the first application of a document
// to be verified holds it and gets the sign-in user (the document as username). Until then nobody holds the
// document, so typing someone else's DNI reserves nothing. An application that ends without a customer
// (rejected, expired) lets go of its hold, its sealed password and its user.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import { idDocumentHoldRepository } from '../repositories/idDocumentHoldRepository';
import { pendingPasswordRepository, type PendingPasswordRepository } from '../repositories/pendingPasswordRepository';
import { IdentityError, type IdentityService, type IdentityUser } from './identity';
import { ONBOARDING_STATUS_ATTRIBUTE } from './onboardingGate';

/** Another application's verified identity holds the ID document. */
export class IdDocumentHeldError extends Error {
  constructor(
    readonly idDocument: string,
    readonly holder: string,
  ) {
    super(`ID document ${idDocument} is held by application ${holder}, whose identity was verified first`);
    this.name = 'IdDocumentHeldError';
  }
}

/** The chosen password, sealed with AES-256-GCM under a server key and bound to its application, until the user is made. */
function pendingPasswords(stored: PendingPasswordRepository, key: Buffer) {
  return {
    async keep(applicationId: string, password: string, now: Date): Promise<void> {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(applicationId, 'utf8'));
      const data = Buffer.concat([cipher.update(password, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      await stored.keep(applicationId, `${iv.toString('base64')}.${data.toString('base64')}`, now);
    },

    /**
     * Takes the password out (of two callers at once, one gets it) and hands it to `withPassword`; put back as it
     * was if that fails, for a later try. Undefined when there is none (not chosen yet, or being used).
     */
    async spend<T>(applicationId: string, withPassword: (password: string) => Promise<T>): Promise<T | undefined> {
      const row = await stored.take(applicationId);
      if (!row) return undefined;
      const [iv, data] = row.sealed.split('.').map((part) => Buffer.from(part, 'base64'));
      const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(applicationId, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - 16));
      const password = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
      try {
        return await withPassword(password);
      } catch (error) {
        await stored.putBack(applicationId, row);
        throw error;
      }
    },

    remove: (applicationId: string): Promise<void> => stored.remove(applicationId),
  };
}

interface SignInUserDependencies {
  db: Kysely<Database>;
  applications: ApplicationRepository;
  identity: Pick<IdentityService, 'getUser' | 'createUser' | 'setPassword' | 'deleteUser'>;
  /** The key pending passwords are sealed with (derived from the server secret). */
  passwordKey: Buffer;
}

/**
 * A user of the application's ID document that the application itself made and did not get to record: made after
 * the application said it was making one (`signInUserStarted`), for its e-mail, still waiting for approval. A try
 * whose answer was lost (the identity service went away after making it, the SDK's retry then found the name taken)
 * or whose password did not follow leaves such a user; the next try takes it as its own instead of refusing the
 * document as a customer's, or making a second one.
 */
export function madeForApplication(application: Pick<Application, 'email' | 'answers'>, user: IdentityUser): boolean {
  const started = application.answers.signInUserStarted;
  if (typeof started !== 'string') return false;
  const madeAfter = user.createdAt === undefined || user.createdAt.getTime() >= Date.parse(started) - CLOCK_SKEW_MS;
  return madeAfter && user.attributes.email === application.email && user.attributes[ONBOARDING_STATUS_ATTRIBUTE] === 'pending';
}

/** How far the identity service's clock may be behind this server's when it dates a user. */
const CLOCK_SKEW_MS = 5 * 60_000;

export function signInUsers(deps: SignInUserDependencies) {
  const holds = idDocumentHoldRepository(deps.db);
  const passwords = pendingPasswords(pendingPasswordRepository(deps.db), deps.passwordKey);

  /** Saves `answers` over the application's, on its version, read again when another save came first. */
  async function saveAnswers(application: Application, answers: Record<string, unknown>, now: Date): Promise<Application> {
    // Until it is saved, not three times as other changes (applicationChanges.ts): what it records exists now.
    for (let current: Application | undefined = application; current; current = await deps.applications.find(application.id)) {
      const saved = await deps.applications.save(current, { answers: { ...current.answers, ...answers } }, now);
      if (saved) return saved;
    }
    throw new Error(`Application ${application.id} is gone`);
  }

  /**
   * Makes the application's sign-in user when it holds its ID document and has chosen a password: the document as
   * username, the verified phone, unable to sign in until approval. Answers the application as saved (with
   * `identityUserSub`). Again for one that has its user: nothing changes. A try cut short by the identity service
   * going away is finished by the next: the user it made is taken as the application's own (madeForApplication).
   */
  async function ensureUser(application: Application, now: Date): Promise<Application> {
    if ((await holds.holderOf(application.idDocument)) !== application.id) return application;
    const username = application.idDocument;
    const existing = await deps.identity.getUser(username);
    if (existing && existing.sub === application.answers.identityUserSub) return application;
    const unrecorded = existing !== undefined && madeForApplication(application, existing);
    // Said before the user is made, so that a user made whose answer is lost is known as this application's.
    const making = existing ? application : await saveAnswers(application, { signInUserStarted: now.toISOString() }, now);
    // Taken out while the user is made: a second call at the same time (a provider's result delivered twice, an
    // approval) finds none and leaves it to the first.
    const made = await passwords.spend(application.id, async (password) => {
      if (existing && !unrecorded) throw new IdDocumentHeldError(username, 'a customer');
      const sub = unrecorded ? existing.sub : await createUser(making, username);
      // Failing, the user stays without it, and the next try sets it (the password is put back meanwhile).
      await deps.identity.setPassword(username, password, true);
      return sub;
    });
    if (made === undefined) return application;
    return saveAnswers(making, { identityUserSub: made }, now);
  }

  /** Creates the user; one that an earlier attempt of the same call made (its answer lost) is taken as made. */
  async function createUser(application: Application, username: string): Promise<string> {
    try {
      return (await deps.identity.createUser(username, String(application.answers.telephoneNumber), { email: application.email, [ONBOARDING_STATUS_ATTRIBUTE]: 'pending' })).sub;
    } catch (error) {
      if (!(error instanceof IdentityError && error.code === 'USERNAME_EXISTS')) throw error;
      const found = await deps.identity.getUser(username);
      if (!found || !madeForApplication(application, found)) throw new IdDocumentHeldError(username, 'a customer');
      return found.sub;
    }
  }

  return {
    holds,
    passwords,
    ensureUser,
    /** Whether `user`, of the application's ID document, is the application's own: recorded, or made and not recorded yet. */
    isOwn: (application: Pick<Application, 'email' | 'answers'>, user: IdentityUser) => user.sub === application.answers.identityUserSub || madeForApplication(application, user),

    /**
     * The application's identity is verified: it takes its ID document, unless another verified application holds
     * it (IdDocumentHeldError). Call before recording the verification, so that a refusal records nothing; then
     * `ensureUser` makes the sign-in user.
     */
    async claim(application: Application, now: Date): Promise<void> {
      const holder = await holds.claim(application.idDocument, application.id, now);
      if (holder !== application.id) throw new IdDocumentHeldError(application.idDocument, holder);
    },

    /** Lets go of everything the application reserved: its hold, its sealed password and its sign-in user (answers whether one was removed). */
    async release(application: Pick<Application, 'id' | 'idDocument' | 'answers'>): Promise<boolean> {
      await passwords.remove(application.id);
      const removed = await removeSignInUser(deps.identity, application);
      await holds.release(application.id);
      return removed;
    },
  };
}

export type SignInUsers = ReturnType<typeof signInUsers>;

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
