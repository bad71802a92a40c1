import type { Middleware, Reducer } from '@reduxjs/toolkit';

/**
 * State that comes with a screen area's code (the back office's API and its session): its reducer joins the
 * store, and its middleware the chain, when the area is first opened, so a customer's page carries none of it.
 */
export interface StoreFeature {
  reducerPath: string;
  reducer: Reducer;
  middleware?: Middleware;
}
