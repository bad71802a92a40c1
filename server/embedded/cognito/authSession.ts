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

// Another context than the password's: neither Session can stand for the other.
const MFA_CONTEXT = 'mfa-session';

export function sealMfaSession(sealingKey: Buffer, state: MfaSessionState): string {
  return seal(sealingKey, JSON.stringify(state), MFA_CONTEXT);
}

export function openMfaSession(sealingKey: Buffer, session: string, now: number): MfaSessionState | undefined {
  const plaintext = open(sealingKey, session, MFA_CONTEXT);
  if (!plaintext) return undefined;
  const state = JSON.parse(plaintext.toString('utf8')) as MfaSessionState;
  return state.expiresAt > now ? state : undefined;
}
