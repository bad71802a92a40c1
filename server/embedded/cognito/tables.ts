// The embedded pool's tables, typed here so the shared Database interface stays untouched
// (`db.withTables<IdentityTables>()`). Created by server/db/migrations/0002_identity.ts (and 0011, 0012, 0028, 0033).
import type { DbBoolean, DbTimestamp } from './dbValues';

export type CognitoUserTable = {
  /** '' for the service's main pool, the pool id for the others (0028). */
  pool: string;
  sub: string;
  username: string;
  /** JSON object of attribute name → string value, as Cognito keeps them. */
  attributes: string;
  /** Hex; null until a password is set. */
  salt: string | null;
  verifier: string | null;
  /** FORCE_CHANGE_PASSWORD | CONFIRMED */
  status: string;
  enabled: DbBoolean;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
  /** When the password was set, for a temporary one's expiry (0033); null while there is none. */
  password_set_at: DbTimestamp | null;
};

export type CognitoSignInFailureTable = {
  pool: string;
  username: string;
  failures: number;
  locked_until: DbTimestamp | null;
  updated_at: DbTimestamp;
};

/**
 * Failures per name and client, and per client at every name (`username` ''), 0040: what locks a client out while
 * the name's own count (above) only ever stops clients that failed at it.
 */
export type CognitoClientFailureTable = {
  pool: string;
  username: string;
  /** HMAC of the client's address. */
  client: string;
  failures: number;
  locked_until: DbTimestamp | null;
  updated_at: DbTimestamp;
};

/** InitiateAuth sessions already answered (0012): each Session is answered once. Kept until it expires. */
export type CognitoAnsweredAuthSessionTable = {
  /** SHA-256 of the Session string the client holds. */
  id: string;
  expires_at: DbTimestamp;
};

export type CognitoRefreshTokenTable = {
  /** SHA-256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  user_sub: string;
  client_id: string;
  /** The sign-in this token belongs to, also carried by the access tokens it yields. */
  origin_jti: string;
  /** Epoch seconds; PostgreSQL returns its bigint as a string. */
  auth_time: number | string;
  expires_at: DbTimestamp;
  revoked: DbBoolean;
  created_at: DbTimestamp;
};

export type CognitoSigningKeyTable = {
  kid: string;
  public_jwk: string;
  sealed_private_key: string;
  created_at: DbTimestamp;
  retired_at: DbTimestamp | null;
  /** The key this one succeeds ('' for the first key), unique (0011); null on keys made before. */
  replaces: string | null;
};

export type CognitoIdentityTable = {
  identity_id: string;
  identity_pool_id: string;
  /** `<issuer host>/<userPoolId>` the login came from. */
  provider: string;
  sub: string;
  created_at: DbTimestamp;
};

export type CognitoCredentialTable = {
  access_key_id: string;
  /** Secret key and session token, sealed: the storage endpoint needs the secret to check SigV4. */
  sealed_secret: string;
  session_token_hash: string;
  identity_id: string;
  expires_at: DbTimestamp;
  created_at: DbTimestamp;
};

/** Members of the groups a pool declares; subs are unique across pools. */
export type CognitoGroupMemberTable = {
  user_sub: string;
  group_name: string;
  created_at: DbTimestamp;
};

/** A user's authenticator app (TOTP): the secrets sealed, the last step a code was accepted for. */
export type CognitoSoftwareTokenTable = {
  user_sub: string;
  /** Verified; null until VerifySoftwareToken succeeds. */
  sealed_secret: string | null;
  /** Associated, not yet verified. */
  sealed_pending_secret: string | null;
  /** Epoch seconds / 30; PostgreSQL returns its bigint as a string. */
  last_used_step: number | string | null;
  enabled: DbBoolean;
  preferred: DbBoolean;
  updated_at: DbTimestamp;
};

export type IdentityTables = {
  cognito_users: CognitoUserTable;
  cognito_sign_in_failures: CognitoSignInFailureTable;
  cognito_client_failures: CognitoClientFailureTable;
  cognito_answered_auth_sessions: CognitoAnsweredAuthSessionTable;
  cognito_refresh_tokens: CognitoRefreshTokenTable;
  cognito_signing_keys: CognitoSigningKeyTable;
  cognito_identities: CognitoIdentityTable;
  cognito_credentials: CognitoCredentialTable;
  cognito_group_members: CognitoGroupMemberTable;
  cognito_software_tokens: CognitoSoftwareTokenTable;
};
