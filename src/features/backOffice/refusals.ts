import type { MessageDescriptor } from 'react-intl';
import { describeMessages } from '../../i18n/messages';
import type { StaffApiError } from './backOfficeApi';

/** The back office API's refusals (server/routes/staff-api), each in words a member of staff can act on. */
const REFUSALS = describeMessages({
  NO_STAFF_SESSION: { id: 'backOffice.refusal.NO_STAFF_SESSION', defaultMessage: 'Your session has ended. Sign in again.' },
  ROLE_REQUIRED: { id: 'backOffice.refusal.ROLE_REQUIRED', defaultMessage: 'Your role does not allow this. Ask an administrator if you need it.' },
  NO_ROLE: { id: 'backOffice.refusal.NO_ROLE', defaultMessage: 'Your account has no back-office role yet. Ask an administrator to give you one.' },
  INVALID_TOKEN: { id: 'backOffice.refusal.INVALID_TOKEN', defaultMessage: 'The sign-in was not accepted. Sign in again.' },
  SIGN_IN_NOT_FRESH: { id: 'backOffice.refusal.SIGN_IN_NOT_FRESH', defaultMessage: 'The sign-in took too long. Sign in again.' },
  SIGN_IN_USED: { id: 'backOffice.refusal.SIGN_IN_USED', defaultMessage: 'This sign-in has already started a session. Sign in again.' },
  IDENTITY_UNAVAILABLE: { id: 'backOffice.refusal.IDENTITY_UNAVAILABLE', defaultMessage: 'The sign-in service cannot be reached right now. Try again in a moment.' },
  APPLICATION_NOT_FOUND: { id: 'backOffice.refusal.APPLICATION_NOT_FOUND', defaultMessage: 'There is no such application: it may have been removed.' },
  CONCURRENT_CHANGE: {
    id: 'backOffice.refusal.CONCURRENT_CHANGE',
    defaultMessage: 'Someone changed this application at the same time. It has been reloaded: check it and try again.',
  },
  ALREADY_DECIDED: { id: 'backOffice.refusal.ALREADY_DECIDED', defaultMessage: 'This application has already been decided.' },
  NOT_DECIDABLE: { id: 'backOffice.refusal.NOT_DECIDABLE', defaultMessage: 'This application cannot be decided now: it is not waiting for the bank.' },
  IDENTITY_NOT_APPROVED: { id: 'backOffice.refusal.IDENTITY_NOT_APPROVED', defaultMessage: "The applicant's identity has to be approved before the application." },
  ID_DOCUMENT_HELD: {
    id: 'backOffice.refusal.ID_DOCUMENT_HELD',
    defaultMessage: 'Another application with the same ID document had its identity verified first: this one cannot be approved.',
  },
  SECOND_APPROVER_NEEDED: {
    id: 'backOffice.refusal.SECOND_APPROVER_NEEDED',
    defaultMessage: 'You have already approved this high-risk application: a second approver has to decide.',
  },
  REASON_REQUIRED: { id: 'backOffice.refusal.REASON_REQUIRED', defaultMessage: 'Give a reason.' },
  TEMPLATE_NOT_FOUND: { id: 'backOffice.refusal.TEMPLATE_NOT_FOUND', defaultMessage: 'That message template no longer exists. Choose another one.' },
  EFFECTS_PENDING: {
    id: 'backOffice.refusal.EFFECTS_PENDING',
    defaultMessage: 'The decision is recorded, but some of its effects are still pending: they will be completed automatically.',
  },
  SIGN_IN_USER_PENDING: { id: 'backOffice.refusal.SIGN_IN_USER_PENDING', defaultMessage: "The customer's access cannot be set up right now. Try again in a moment." },
  INVALID_REQUEST: { id: 'backOffice.refusal.INVALID_REQUEST', defaultMessage: 'That request was not valid. Check what you typed and try again.' },
  EVIDENCE_CHANGED: {
    id: 'backOffice.refusal.EVIDENCE_CHANGED',
    defaultMessage: 'The stored copy does not match the fingerprint recorded when it was signed. Do not rely on it: tell the compliance team.',
  },
  EVIDENCE_MISSING: { id: 'backOffice.refusal.EVIDENCE_MISSING', defaultMessage: 'The stored copy is missing. Tell the compliance team.' },
  DOCUMENT_NOT_FOUND: { id: 'backOffice.refusal.DOCUMENT_NOT_FOUND', defaultMessage: 'This application has no such document.' },
  CONTRACT_NOT_FOUND: { id: 'backOffice.refusal.CONTRACT_NOT_FOUND', defaultMessage: 'This application has no signed contract.' },
  INVALID_RECEIVED_DATE: { id: 'backOffice.refusal.INVALID_RECEIVED_DATE', defaultMessage: 'Give the day the request was received: today or earlier.' },
  INVALID_DATE: { id: 'backOffice.refusal.INVALID_DATE', defaultMessage: 'That is not a date. Choose a day.' },
  DATE_IN_FUTURE: { id: 'backOffice.refusal.DATE_IN_FUTURE', defaultMessage: 'That day has not come yet: record the end once it has happened.' },
  DATE_BEFORE_APPROVAL: { id: 'backOffice.refusal.DATE_BEFORE_APPROVAL', defaultMessage: 'That day is before the application was approved.' },
  NOT_A_CUSTOMER: { id: 'backOffice.refusal.NOT_A_CUSTOMER', defaultMessage: 'Only an approved customer has a relationship to end.' },
  RELATIONSHIP_ALREADY_ENDED: {
    id: 'backOffice.refusal.RELATIONSHIP_ALREADY_ENDED',
    defaultMessage: 'The end of this relationship is already recorded with another day, and cannot be changed.',
  },
});

const OTHER = describeMessages({
  unreachable: { id: 'backOffice.refusal.unreachable', defaultMessage: 'The back office cannot be reached. Check your connection and try again.' },
  unknown: { id: 'backOffice.refusal.unknown', defaultMessage: 'Something went wrong ({status}). Try again; if it happens again, tell the support team.' },
});

/** What to say for a failed call: its refusal's words, or that the server could not be reached, or the status. */
export function refusalMessage(error: StaffApiError | undefined): { descriptor: MessageDescriptor; values?: Record<string, string> } {
  const code = error?.code;
  if (code && code in REFUSALS) return { descriptor: REFUSALS[code as keyof typeof REFUSALS] };
  if (!error || typeof error.status !== 'number') return { descriptor: OTHER.unreachable };
  return { descriptor: OTHER.unknown, values: { status: String(error.status) } };
}

/**
 * The code of an API refusal: `code` on an error thrown with one, `errorCode` on the app's failed calls
 * (src/services/baseQuery.ts), so a page can hand a mutation's `unwrap()` straight to these components.
 */
export function refusalCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errorCode } = error as { code?: unknown; errorCode?: unknown };
  const found = code ?? errorCode;
  return typeof found === 'string' ? found : undefined;
}
