// Who may do what, by key prefix: the rules Amplify's IAM policies give the three storage areas on AWS.
//   public/...                 any signed-in identity reads, writes and deletes
//   protected/{identityId}/... any signed-in identity reads; only its owner writes
//   private/{identityId}/...   only its owner
// The server's own credentials may do everything; anything outside the three areas is the server's alone.
import type { Principal } from './auth';
import { errors } from './errors';

type AccessKind = 'read' | 'write';

function ownArea(principal: Principal & { kind: 'identity' }, area: 'protected' | 'private'): string {
  return `${area}/${principal.identityId}/`;
}

export function mayAccess(principal: Principal, key: string, access: AccessKind): boolean {
  if (principal.kind === 'server') return true;
  if (key.startsWith('public/')) return true;
  if (key.startsWith(ownArea(principal, 'private')) || key.startsWith(ownArea(principal, 'protected'))) return true;
  return access === 'read' && /^protected\/[^/]+\/./.test(key);
}

export function requireAccess(principal: Principal, key: string, access: AccessKind): void {
  if (!mayAccess(principal, key, access)) throw errors.accessDenied();
}

/** Listing needs a prefix inside an area the identity may read (s3:prefix conditions of Amplify's policy). */
export function requireListAccess(principal: Principal, prefix: string): void {
  if (principal.kind === 'server') return;
  if (prefix.startsWith('public/') || prefix.startsWith('protected/') || prefix.startsWith(ownArea(principal, 'private'))) return;
  throw errors.accessDenied();
}

/** An upload id belongs to whoever created it. */
export function requireUploadOwner(principal: Principal, owner: string | null): void {
  if (principal.kind === 'server') return;
  if (owner !== principal.identityId) throw errors.accessDenied();
}

export function ownerOf(principal: Principal): string | null {
  return principal.kind === 'server' ? null : principal.identityId;
}
