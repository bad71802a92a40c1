// Who may do what, by key prefix. The product's applicants (identity-pool identities) need one thing: to put
// their own documents where the server checks them. So an identity reads, writes, deletes and lists only
// under its own `private/{identityId}/`; `public/` and `protected/` (Amplify's shared areas) serve no product
// feature and are the server's alone, like everything else (docs/storage.md, "Who may do what").
import type { Principal } from './auth';
import { errors } from './errors';

type AccessKind = 'read' | 'write';

function ownArea(principal: Principal & { kind: 'identity' }): string {
  return `private/${principal.identityId}/`;
}

/** Reading and writing follow the same rule today; the kind stays in the call so that a future rule can differ. */
export function mayAccess(principal: Principal, key: string, access: AccessKind): boolean {
  if (principal.kind === 'server') return true;
  return (access === 'read' || access === 'write') && key.startsWith(ownArea(principal));
}

export function requireAccess(principal: Principal, key: string, access: AccessKind): void {
  if (!mayAccess(principal, key, access)) throw errors.accessDenied();
}

/** Listing needs a prefix inside the identity's own area (the s3:prefix condition of a per-identity policy). */
export function requireListAccess(principal: Principal, prefix: string): void {
  if (principal.kind === 'server') return;
  if (prefix.startsWith(ownArea(principal))) return;
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
