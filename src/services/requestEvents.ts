import { createAction } from '@reduxjs/toolkit';

/**
 * What the base query reports about requests. Defined here so the service layer needs no feature; the
 * session slice records them.
 */
export const requestStarted = createAction<{ at: number }>('session/requestStarted');
export const requestFinished = createAction('session/requestFinished');
export const sessionIdAssigned = createAction<string>('session/sessionIdAssigned');
export const errorRaised = createAction<string>('session/errorRaised');
