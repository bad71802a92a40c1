import { createAction } from '@reduxjs/toolkit';

/**
 * What the service layer reports: the session id it made up, the error a failed request shows. Defined here so
 * the service layer needs no feature; the session slice records them.
 */
export const sessionIdAssigned = createAction<string>('session/sessionIdAssigned');
export const errorRaised = createAction<string>('session/errorRaised');
