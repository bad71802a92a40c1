import type { TypedMutationOnQueryStarted } from '@reduxjs/toolkit/query/react';
import { api } from '../../services/api';
import type { apiBaseQuery } from '../../services/baseQuery';
import type { ApiError } from '../../services/baseQuery';
import type { FieldError } from '../../validation/validate';
import type { StepId } from '../../onboarding/flow';
import type { ContractBlock } from '../../onboarding/contractBlocks';

/** The application as the server shows it to the applicant (never a secret). */
export interface ApplicationView {
  id: string;
  status: 'in-progress' | 'not-allowed' | 'pending-review' | 'approved' | 'rejected';
  personType: 'freelance' | 'company' | null;
  currentStep: string;
  completedSteps: string[];
  answers: Record<string, unknown>;
  maskedEmail: string;
  /** What the bank asked the applicant to change after they signed: the steps it reopened and its words. */
  requestedChanges?: { steps: string[]; text: string };
}

/** A signed, approved or rejected application, as its token still sees it: how it went, nothing more. */
interface ClosedApplication {
  id: string;
  status: 'pending-review' | 'approved' | 'rejected';
}

export const isClosedApplication = (application: ApplicationView | ClosedApplication): application is ClosedApplication => !('answers' in application);

/** What every step's save answers: the route the flow's rules pick next, and the application saved. */
interface StepSaved {
  next: string;
  application: ApplicationView;
}

interface Registered {
  token: string;
  expiresIn: number;
  maskedEmail: string;
  resendAfterSeconds: number;
}

interface RegisterBody {
  email: string;
  idType: 'nif' | 'passport';
  id: string;
  passportExpeditionCountry?: string;
  privacyPolicy: boolean;
  precontractualInformation: boolean;
  promotionalCode?: string;
  promotionalCodeFromParam: boolean;
  sessionId: string;
}

interface EmailVerified {
  next: string;
  token?: string;
  expiresIn?: number;
  application: ApplicationView | null;
}

export interface PhoneSaved extends StepSaved {
  maskedPhone: string;
  resendAfterSeconds: number;
}

interface IdentityCheckStatus {
  /** `needs-review`: the bank's reviewer will look at the photos; the contract can be signed meanwhile. */
  status: 'pending' | 'needs-review' | 'approved' | 'rejected';
  reason?: string;
}

/** The contract's content in reading order, in the application's language. */
export interface ContractText {
  language: string;
  /** The version of the bank's contract text, which the signature records. */
  version: string;
  blocks: ContractBlock[];
}

const PRIVATE = 'onboarding-management-private';

/** How long the application stays read while no screen shows it (Back to a checklist, a page of the login). */
const APPLICATION_KEPT_SECONDS = 60 * 60;

/**
 * The application a call answered replaces the one read (a refusal is the screen's to say): a save, or the e-mail
 * code that opened or resumed it.
 */
const keepAnsweredApplication: TypedMutationOnQueryStarted<{ application: ApplicationView | null }, unknown, typeof apiBaseQuery> = async (
  _argument,
  { dispatch, queryFulfilled },
) => {
  const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
  if (data?.application) await dispatch(onboardingApi.util.upsertQueryData('getApplication', undefined, data.application));
};

export const onboardingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** /signUp: sends the e-mail code; the token names the sign-up until the code is confirmed. */
    register: build.mutation<Registered, RegisterBody>({
      query: (body) => ({ url: 'onboarding-management/register', method: 'POST', noAuth: true, body: { ...body } }),
    }),
    verifyEmail: build.mutation<EmailVerified, { code: string }>({
      query: (body) => ({ url: `${PRIVATE}/email/verify`, method: 'POST', body }),
      onQueryStarted: keepAnsweredApplication,
    }),
    resendEmail: build.mutation<{ resendAfterSeconds: number }, void>({
      query: () => ({ url: `${PRIVATE}/email/resend`, method: 'POST' }),
    }),
    /**
     * The application the wizard's screens read, once per page load: every save answers with the application
     * saved, which replaces it here, so moving between steps asks for nothing. Forgotten when the journey ends.
     */
    getApplication: build.query<ApplicationView | ClosedApplication, void>({
      query: () => ({ url: `${PRIVATE}/application` }),
      providesTags: ['Application'],
      keepUnusedDataFor: APPLICATION_KEPT_SECONDS,
    }),
    /** Saves one step of the flow at its endpoint (flow.ts), with the step's values. */
    saveStep: build.mutation<StepSaved, { endpoint: string; body: Record<string, unknown> }>({
      query: ({ endpoint, body }) => ({ url: endpoint, method: 'POST', body }),
      onQueryStarted: keepAnsweredApplication,
    }),
    resendPhoneCode: build.mutation<{ resendAfterSeconds: number }, void>({
      query: () => ({ url: `${PRIVATE}/phone/resend`, method: 'POST' }),
    }),
    identityCheckStatus: build.query<IdentityCheckStatus, void>({
      query: () => ({ url: `${PRIVATE}/identity-check` }),
      keepUnusedDataFor: 0,
    }),
    /** The words of the contract, as the PDF prints them, for the page to show. */
    contractText: build.query<ContractText, void>({
      query: () => ({ url: `${PRIVATE}/contract/text` }),
      keepUnusedDataFor: 0,
    }),
    /** Fails with error.errorSendingData in the global modal unless the screen says why itself (a refusal to send). */
    contractConsent: build.mutation<{ maskedPhone: string; resendAfterSeconds: number }, { electronicIdentification: boolean }>({
      query: (body) => ({ url: `${PRIVATE}/contract/consent`, method: 'POST', body }),
    }),
    resendContractCode: build.mutation<{ resendAfterSeconds: number }, void>({
      query: () => ({ url: `${PRIVATE}/contract/resend`, method: 'POST' }),
    }),
  }),
});

export const {
  useRegisterMutation,
  useVerifyEmailMutation,
  useResendEmailMutation,
  useGetApplicationQuery,
  useSaveStepMutation,
  useResendPhoneCodeMutation,
  useIdentityCheckStatusQuery,
  useContractTextQuery,
  useContractConsentMutation,
  useResendContractCodeMutation,
} = onboardingApi;

/** The field-level errors of a 400 VALIDATION_FAILED answer (the same validators as the browser's). */
export function fieldErrorsOf(error: unknown): FieldError[] {
  const { errorCode, data } = (error ?? {}) as ApiError;
  if (errorCode !== 'VALIDATION_FAILED' || typeof data !== 'object' || data === null) return [];
  const errors = (data as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as FieldError[]).filter((entry) => typeof entry?.field === 'string' && typeof entry?.id === 'string') : [];
}

/** The entity letter of `409 CONFIRMATION_REQUIRED`: an answer that would close the application, to confirm first. */
export function confirmationAsked(error: unknown): string | undefined {
  const { errorCode, data } = (error ?? {}) as ApiError;
  if (errorCode !== 'CONFIRMATION_REQUIRED' || typeof data !== 'object' || data === null) return undefined;
  const entity = (data as { entity?: unknown }).entity;
  return typeof entity === 'string' ? entity : '';
}

/** The refusals that name where the applicant should be instead (the server's `currentStep`). */
const REDIRECTING_REFUSALS = ['STEP_OUT_OF_ORDER', 'APPLICATION_CLOSED', 'STEP_NOT_REOPENED'];

/**
 * Where the server says the applicant should be instead: 409 STEP_OUT_OF_ORDER carries currentStep, and so do
 * APPLICATION_CLOSED once the application is signed (/welcome) and STEP_NOT_REOPENED (a step the bank did not
 * send the applicant back to: the next one it did).
 */
export function currentStepOf(error: unknown): StepId | undefined {
  const { errorCode, data } = (error ?? {}) as ApiError;
  if (!REDIRECTING_REFUSALS.includes(errorCode ?? '') || typeof data !== 'object' || data === null) return undefined;
  const step = (data as { currentStep?: unknown }).currentStep;
  return typeof step === 'string' ? (step as StepId) : undefined;
}
