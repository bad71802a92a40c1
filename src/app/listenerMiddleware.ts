import { createListenerMiddleware, type TypedStartListening } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from './store';

/** How listeners move the user between routes; the app plugs in the router's navigate. */
export interface Navigation {
  navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => void;
  /** Leaves the SPA for another site (the main app after login). */
  leaveApp: (url: string) => void;
}

export interface ListenerExtra {
  navigation: Navigation;
}

export type AppStartListening = TypedStartListening<RootState, AppDispatch, ListenerExtra>;

/** Typed at the use site (`startListening`) so the store's own types do not depend on themselves. */
export function createAppListenerMiddleware(extra: ListenerExtra) {
  const middleware = createListenerMiddleware({ extra });
  return { middleware: middleware.middleware, startListening: middleware.startListening as AppStartListening };
}
