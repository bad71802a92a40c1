// What every operation of the embedded pool works with, built once when the plugin starts.
import type { IdentityRepository, PoolUser } from './repository';
import type { AwsCredentials } from './sigv4';
import type { TokenIssuer, TokenLifetimes } from './tokens';

export interface PasswordPolicy {
  minimumLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireNumbers: boolean;
  requireSymbols: boolean;
  /** How long a temporary password may be used (Cognito's TemporaryPasswordValidityDays, default 7). */
  temporaryPasswordValidityDays: number;
}

/** What the API server's pre-token-generation check sees: never the password or any secret. */
export interface PreTokenGenerationUser {
  username: string;
  sub: string;
  attributes: Record<string, string>;
}

/** Refuse tokens (a sign-in, a renewal) with `{ code }`: the client gets `PreTokenGeneration failed with error <code>.` */
export type PreTokenGenerationHook = (user: PreTokenGenerationUser) => void | { code: string } | Promise<void | { code: string }>;

export interface PoolSettings {
  poolId: string;
  /** The part of the pool id after `_`, which SRP mixes into every password hash. */
  poolName: string;
  clientId: string;
  /** `iss` of the tokens: `<issuer base URL>/<poolId>`. */
  issuer: string;
  /** The Logins key of the identity pool: the issuer without its scheme. */
  loginProvider: string;
  identityPoolId: string;
  /** The identity pool's developer provider name (developer-authenticated identities); none: not enabled. */
  developerProviderName?: string;
  adminCredentials: AwsCredentials;
  lifetimes: TokenLifetimes;
  /**
   * `maxFailures` in a row from one client at a name lock that client out of it (Cognito's 5), `clientMaxFailures`
   * from one client at every name lock it out of all, and `nameMaxFailures` from every client together lock the name
   * for the clients that failed at it only: one that never did is still judged, so strangers cannot lock a member out.
   * Each lock lasts `lockSeconds`.
   */
  lockout: { maxFailures: number; lockSeconds: number; nameMaxFailures: number; clientMaxFailures: number };
  maxClockSkewSeconds: number;
  authSessionSeconds: number;
  temporaryCredentialsSeconds: number;
  passwordPolicy: PasswordPolicy;
  /** ON: every sign-in asks for an authenticator app's code (SOFTWARE_TOKEN_MFA), enrolling one first (MFA_SETUP). */
  mfa: 'OFF' | 'ON';
  /** The pool's groups (AdminAddUserToGroup); made with the pool, not by CreateGroup. */
  groups: string[];
}

export interface PoolKeys {
  /** Derives the fake salt and verifier of unknown users, so they look like real ones. */
  fakeUser: Buffer;
  srpSession: Buffer;
  credentials: Buffer;
  /** Seals the users' TOTP secrets. */
  softwareTokens: Buffer;
}

export interface PoolContext {
  settings: PoolSettings;
  keys: PoolKeys;
  repository: IdentityRepository;
  tokens: TokenIssuer;
  preTokenGeneration: () => PreTokenGenerationHook | undefined;
  now: () => number;
  /** The client of the call being answered (an HMAC of its address), for the lockout; none outside a call. */
  client?: string;
}

export type { PoolUser };
