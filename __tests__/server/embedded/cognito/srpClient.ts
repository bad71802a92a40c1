// USER_SRP_AUTH as amazon-cognito-identity-js runs it (the same two requests, the same formulas and padding), with
// the maths done by the server's OpenSSL helpers: the library's pure-JS BigInteger costs ~0.2 s of CPU per
// sign-in. For the tests whose subject is what the server does with a sign-in; signIn.test.ts and one sign-in per
// dialect in the login suites keep the unmodified library.
import { createHmac, randomBytes } from 'node:crypto';
import { N, computeX, formatSrpTimestamp, g, hexHash, k, modPowN, padHex, passwordClaimSignature } from '../../../../server/embedded/cognito/srp';

export interface AuthenticationResult {
  IdToken: string;
  AccessToken: string;
  RefreshToken: string;
  ExpiresIn: number;
  TokenType: string;
}

/** A refusal, shaped as the library reports it: `code` and `name` from `__type`, and the server's message. */
export class SrpClientError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = code;
    this.code = code;
  }
}

/** `client`: the address the call comes from, as a trusted proxy in front of the pool would say (X-Forwarded-For). */
async function call(endpoint: string, operation: string, body: object, client?: string): Promise<Record<string, unknown>> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`, ...(client ? { 'x-forwarded-for': client } : {}) },
    body: JSON.stringify(body),
  });
  const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return data;
  const code = String(data.__type ?? data.code).split('#').pop()!;
  throw new SrpClientError(code, String(data.message ?? data.Message ?? null));
}

/** The password's part of a sign-in: the pool's answer to it (tokens, or its next challenge), or SrpClientError. */
export async function answerPasswordVerifier(endpoint: string, poolId: string, clientId: string, username: string, password: string, client?: string): Promise<Record<string, unknown>> {
  const poolName = poolId.split('_')[1];
  const a = BigInt(`0x${randomBytes(128).toString('hex')}`) % N;
  const A = modPowN(g, a);
  const challenge = await call(endpoint, 'InitiateAuth', { AuthFlow: 'USER_SRP_AUTH', ClientId: clientId, AuthParameters: { USERNAME: username, SRP_A: A.toString(16) } }, client);
  const parameters = challenge.ChallengeParameters as Record<string, string>;
  const userId = parameters.USER_ID_FOR_SRP;
  const B = BigInt(`0x${parameters.SRP_B}`);
  const u = BigInt(`0x${hexHash(padHex(A) + padHex(B))}`);
  const x = computeX(poolName, userId, password, parameters.SALT);
  const S = modPowN((((B - k * modPowN(g, x)) % N) + N) % N, a + u * x);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex')).update(Buffer.from(padHex(S), 'hex')).digest();
  const key = createHmac('sha256', prk).update('Caldera Derived Key\u0001').digest().subarray(0, 16);
  const timestamp = formatSrpTimestamp(Date.now());
  const answer = await call(endpoint, 'RespondToAuthChallenge', {
    ChallengeName: 'PASSWORD_VERIFIER',
    ClientId: clientId,
    Session: challenge.Session,
    ChallengeResponses: {
      USERNAME: userId,
      PASSWORD_CLAIM_SECRET_BLOCK: parameters.SECRET_BLOCK,
      TIMESTAMP: timestamp,
      PASSWORD_CLAIM_SIGNATURE: passwordClaimSignature(key, poolName, userId, Buffer.from(parameters.SECRET_BLOCK, 'base64'), timestamp),
    },
  }, client);
  return { ...answer, userId };
}

/** Signs `username` in to the pool at `endpoint` (`…/cognito`) and answers its tokens, or throws SrpClientError. */
export async function srpSignIn(endpoint: string, poolId: string, clientId: string, username: string, password: string, client?: string): Promise<AuthenticationResult> {
  const answer = await answerPasswordVerifier(endpoint, poolId, clientId, username, password, client);
  if (answer.ChallengeName) throw new Error(`unexpected challenge ${String(answer.ChallengeName)}`);
  return answer.AuthenticationResult as AuthenticationResult;
}

/**
 * A first sign-in to a pool that requires an authenticator app, as the library's mfaSetup and associateSecretCode
 * callbacks run it: the password, then AssociateSoftwareToken, VerifySoftwareToken with the app's code for the
 * secret (`codeFor`) and the MFA_SETUP answer. Answers the tokens.
 */
export async function srpSignInEnrolling(endpoint: string, poolId: string, clientId: string, username: string, password: string, codeFor: (secret: string) => string): Promise<AuthenticationResult> {
  const answer = await answerPasswordVerifier(endpoint, poolId, clientId, username, password);
  if (answer.ChallengeName !== 'MFA_SETUP') throw new Error(`expected MFA_SETUP, got ${String(answer.ChallengeName)}`);
  const association = await call(endpoint, 'AssociateSoftwareToken', { Session: answer.Session });
  const verified = await call(endpoint, 'VerifySoftwareToken', { Session: association.Session, UserCode: codeFor(String(association.SecretCode)), FriendlyDeviceName: 'phone' });
  if (verified.Status !== 'SUCCESS') throw new Error(`VerifySoftwareToken: ${String(verified.Status)}`);
  const done = await call(endpoint, 'RespondToAuthChallenge', { ChallengeName: 'MFA_SETUP', ClientId: clientId, Session: verified.Session, ChallengeResponses: { USERNAME: answer.userId } });
  return done.AuthenticationResult as AuthenticationResult;
}

/** The refusal of a sign-in that must fail, reduced to what an app can see (as browserClient's signInError). */
export async function srpSignInError(endpoint: string, poolId: string, clientId: string, username: string, password: string, client?: string): Promise<{ code: string; name: string; message: string }> {
  try {
    await srpSignIn(endpoint, poolId, clientId, username, password, client);
  } catch (error) {
    const { code, name, message } = error as SrpClientError;
    return { code, name, message };
  }
  throw new Error(`sign-in of ${username} unexpectedly succeeded`);
}
