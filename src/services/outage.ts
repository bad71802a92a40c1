import type { ApiError } from './baseQuery';

/**
 * A failed call the person can do nothing about but try again: a service behind the API could not be reached
 * (`503 SERVICE_UNAVAILABLE`, `IDENTITY_UNAVAILABLE`, or a gateway's 502 and 504), or the SMS or e-mail with their
 * code was not sent (`503 MESSAGE_NOT_SENT`). Nothing typed is wrong and nothing was lost; null for any other
 * failure (a 500 is a fault of ours, said as before).
 */
export type Outage = 'unavailable' | 'notSent';

export function outageOf(error: unknown): Outage | null {
  const { status, errorCode } = (error ?? {}) as Partial<ApiError>;
  if (errorCode === 'MESSAGE_NOT_SENT') return 'notSent';
  return status === 502 || status === 503 || status === 504 ? 'unavailable' : null;
}

/** The global dialog's message for an outage (locales: error.serviceUnavailable, error.messageNotSent). */
export const OUTAGE_MESSAGE_IDS: Record<Outage, string> = { unavailable: 'error.serviceUnavailable', notSent: 'error.messageNotSent' };
