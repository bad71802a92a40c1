// Staff members of a test server's staff pool, signed in as the back office's page signs them in (a password, then
// an authenticator app enrolled at the first sign-in), its ID token traded for a back-office session. The requests
// are the unmodified amazon-cognito-identity-js's, with the maths through OpenSSL (srpClient.ts): the library's own
// enrolment is staffPool.test.ts's subject.
import { AdminAddUserToGroupCommand, AdminCreateUserCommand, AdminSetUserPasswordCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { Secret, TOTP } from 'otpauth';
import { embeddedIdentityCredentials } from '../../../server/plugins/identity';
import { loadServerSecret } from '../../../server/services/serverSecret';
import { srpSignInEnrolling, type AuthenticationResult } from '../embedded/cognito/srpClient';
import type { startLoginServerOn } from '../login/loginServer';

type Server = Awaited<ReturnType<typeof startLoginServerOn>>;

export const STAFF_PASSWORD = 'Staff-Password-2026';
let count = 0;

/** A new member of the staff pool with these roles (none: a member the bank has not given a role yet). */
export async function newStaffMember(server: Server, roles: string[]): Promise<string> {
  const staff = server.config.staff!;
  const admin = new CognitoIdentityProviderClient({
    region: server.config.identity.region,
    endpoint: server.config.identity.endpoint,
    credentials: embeddedIdentityCredentials(loadServerSecret(server.config.dataDir, server.config.serverSecret)),
  });
  const username = `staff${(count += 1)}-${Date.now()}@divilo.test`;
  try {
    await admin.send(new AdminCreateUserCommand({ UserPoolId: staff.userPoolId, Username: username, MessageAction: 'SUPPRESS' }));
    await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: staff.userPoolId, Username: username, Password: STAFF_PASSWORD, Permanent: true }));
    for (const role of roles) await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: staff.userPoolId, Username: username, GroupName: role }));
  } finally {
    admin.destroy();
  }
  return username;
}

/** The first sign-in: the password, then an authenticator app enrolled with its first code; answers the ID token. */
export async function enrolledSignIn(server: Server, username: string): Promise<string> {
  return (await enrolledSignInTokens(server, username)).IdToken;
}

/** The same sign-in's tokens: its ID token and the refresh token that renews it. */
export async function enrolledSignInTokens(server: Server, username: string): Promise<AuthenticationResult> {
  const staff = server.config.staff!;
  const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  return srpSignInEnrolling(server.config.identity.endpoint!, staff.userPoolId, staff.clientId, username, STAFF_PASSWORD, codeFor);
}

/** Trades an ID token for a session: the answer, and the cookie to send with the next calls. */
export async function startStaffSession(server: Server, idToken: string) {
  const response = await fetch(`${server.base}/staff-api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ idToken }) });
  const setCookie = response.headers.get('set-cookie') ?? '';
  const cookie = /divilo_staff=([^;]+)/.exec(setCookie)?.[1];
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, setCookie, cookie: cookie ? `divilo_staff=${cookie}` : undefined };
}

/** A member with these roles, signed in to the back office: their username and the session's cookie. */
export async function signedInStaff(server: Server, roles: string[]): Promise<{ username: string; cookie: string }> {
  const username = await newStaffMember(server, roles);
  const session = await startStaffSession(server, await enrolledSignIn(server, username));
  if (session.status !== 201 || !session.cookie) throw new Error(`staff session: ${session.status} ${JSON.stringify(session.body)}`);
  return { username, cookie: session.cookie };
}

/** One back-office call with a member's session cookie. */
export async function staffCall(server: Server, cookie: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
  const response = await fetch(`${server.base}/staff-api${path}`, {
    method,
    // As the back office sends them: every write as JSON, an empty object when it has nothing to say.
    headers: { cookie, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, type, bytes, body: type.startsWith('application/json') ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown> & { code?: string }) : {} };
}

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
let documents = 0;
/** A valid DNI no other test of the run uses: a random block of ten, then a counter. */
export function nextDni(): string {
  const number = 40_000_000 + Math.floor(Math.random() * 5_000_000) * 10 + ((documents += 1) % 10);
  return `${number}${LETTERS[number % 23]}`;
}
