// The InitiateAuth state, which the client carries in the Session: sealed (AES-256-GCM) under a server key, so
// the client can neither read nor change it, and the sign-in writes nothing until it is answered.
import { createHash } from 'node:crypto';
import { open, seal } from './sealing';

interface AuthSessionState {
  /** USER_ID_FOR_SRP as sent to the client; the user may not exist (fake challenge). */
  username: string;
  /** The user the challenge was made for; null for an unknown name. */
  userSub: string | null;
  /** K, the SRP session key, derived at InitiateAuth (A and v are known then). */
  key: Buffer;
  /** SECRET_BLOCK as sent, which the client must give back. */
  secretBlock: string;
  /**
   * SHA-256 of the verifier K was derived from. A password changed since fails the proof, and forging a Session
   * takes the database's verifier as well as the server secret.
   */
  verifierHash: string;
  expiresAt: number;
}

const CONTEXT = 'auth-session';

export const verifierHash = (verifierHex: string) => createHash('sha256').update(verifierHex, 'utf8').digest('base64');

/** The id under which the database records that a Session was answered. */
export const authSessionId = (session: string) => createHash('sha256').update(session, 'utf8').digest('hex');

export function sealAuthSession(sealingKey: Buffer, state: AuthSessionState): string {
  return seal(sealingKey, JSON.stringify({ ...state, key: state.key.toString('base64') }), CONTEXT);
}

/** The state of a Session sealed here and not yet expired; undefined for anything else. */
export function openAuthSession(sealingKey: Buffer, session: string, now: number): AuthSessionState | undefined {
  const plaintext = open(sealingKey, session, CONTEXT);
  if (!plaintext) return undefined;
  const state = JSON.parse(plaintext.toString('utf8')) as Omit<AuthSessionState, 'key'> & { key: string };
  if (!(state.expiresAt > now)) return undefined;
  return { ...state, key: Buffer.from(state.key, 'base64') };
}

/**
 * Where a sign-in stands after the password: the second factor asked for (SOFTWARE_TOKEN_MFA), or the enrolment of
 * one (MFA_SETUP, then associated, then verified). Each step's Session is answered once, like the first.
 */
export type MfaStage = 'SOFTWARE_TOKEN_MFA' | 'MFA_SETUP' | 'MFA_SETUP_ASSOCIATED' | 'MFA_SETUP_VERIFIED';

export interface MfaSessionState {
  username: string;
  userSub: string;
  stage: MfaStage;
  expiresAt: number;
}

/** A later step's state, sealed under its own context: a Session of one step never stands for another's. */
function sealStep<State extends { expiresAt: number }>(sealingKey: Buffer, state: State, context: string): string {
  return seal(sealingKey, JSON.stringify(state), context);
}

function openStep<State extends { expiresAt: number }>(sealingKey: Buffer, session: string, now: number, context: string): State | undefined {
  const plaintext = open(sealingKey, session, context);
  if (!plaintext) return undefined;
  const state = JSON.parse(plaintext.toString('utf8')) as State;
  return state.expiresAt > now ? state : undefined;
}

const MFA_CONTEXT = 'mfa-session';

export const sealMfaSession = (sealingKey: Buffer, state: MfaSessionState) => sealStep(sealingKey, state, MFA_CONTEXT);
export const openMfaSession = (sealingKey: Buffer, session: string, now: number) => openStep<MfaSessionState>(sealingKey, session, now, MFA_CONTEXT);

/**
 * A sign-in whose password was right but temporary (NEW_PASSWORD_REQUIRED): the user, and the SHA-256 of the
 * temporary password's verifier, so a password set by an administrator since voids the Session.
 */
export interface NewPasswordSessionState {
  username: string;
  userSub: string;
  verifierHash: string;
  expiresAt: number;
}

const NEW_PASSWORD_CONTEXT = 'new-password-session';

export const sealNewPasswordSession = (sealingKey: Buffer, state: NewPasswordSessionState) => sealStep(sealingKey, state, NEW_PASSWORD_CONTEXT);
export const openNewPasswordSession = (sealingKey: Buffer, session: string, now: number) =>
  openStep<NewPasswordSessionState>(sealingKey, session, now, NEW_PASSWORD_CONTEXT);
