/** An unsigned JWT-shaped token whose payload carries `exp` (the browser only reads it, never verifies). */
export function tokenExpiringAt(expSeconds: number): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ sub: 'applicant-1', exp: expSeconds })}.c2lnbmF0dXJl`;
}

/** The same, issued at `iatSeconds`, as the server's tokens are (the browser reads how much of its life is gone). */
export function tokenIssuedAt(iatSeconds: number, expSeconds: number): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ sub: 'applicant-1', iat: iatSeconds, exp: expSeconds })}.c2lnbmF0dXJl`;
}

export const liveToken = () => tokenExpiringAt(Math.floor(Date.now() / 1000) + 600);
export const expiredToken = () => tokenExpiringAt(Math.floor(Date.now() / 1000) - 1);
