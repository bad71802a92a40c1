import type { Dispatch } from '@reduxjs/toolkit';
import { loadItem, StorageKey } from '../storage/browserStorage';
import { sessionIdAssigned } from './requestEvents';

/** A random, uuid-like identifier for the browser's session (sent as sessionId when there is no token). */
function newSessionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The browser's session id: the one in the state, else the stored one, else a new one (then kept). */
export function ensureSessionId(state: { session: { sessionId: string | null } }, dispatch: Dispatch): string {
  const sessionId = state.session.sessionId ?? loadItem<string>(StorageKey.SESSION_ID) ?? newSessionId();
  if (sessionId !== state.session.sessionId) dispatch(sessionIdAssigned(sessionId));
  return sessionId;
}
