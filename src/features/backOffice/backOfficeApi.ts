// The bank's back office API (server/routes/staff-api, docs/back-office.md), on the staff session's cookie: an API
// of its own, not the onboarding one (no onboarding token, no session id in the body), joined to the store when the
// back office's code arrives (src/app/screens/areas.ts).
import { createAction, createSlice, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import type { StoreFeature } from '../../state/storeFeature';
import { REQUEST_TIMEOUT_MS } from '../../config';

export type StaffRole = 'reviewer' | 'approver' | 'administrator' | 'compliance';

export interface StaffSession {
  username: string;
  roles: StaffRole[];
  idleSeconds: number;
  expiresAt: string;
}

export interface SignInConfig {
  region: string;
  userPoolId: string;
  clientId: string;
  endpoint?: string;
  idleSeconds: number;
  warningSeconds: number;
}

export type Awaiting = 'identity-review' | 'decision' | 'second-approval';
export type RiskLevel = 'low' | 'medium' | 'high';

export interface QueueFilter {
  path?: 'freelance' | 'company';
  risk?: RiskLevel;
  awaiting?: Awaiting;
  minWaitHours?: number;
  mine?: boolean;
  order?: 'oldest' | 'newest';
}

export interface QueueEntry {
  id: string;
  status: string;
  path: 'freelance' | 'company' | null;
  risk: RiskLevel | null;
  awaiting: Awaiting;
  name: string;
  waitingSince: string;
  waitedHours: number;
  overTarget: boolean;
  approvals: number;
  canAct: boolean;
}

export interface DocumentView {
  kind: string;
  size: number;
  checkedAt: string;
  sha256?: string;
  frozenAt?: string;
  evidence: 'matches' | 'does not match' | 'missing' | 'not frozen yet';
}

export interface RiskReason {
  kind: 'politically-exposed' | 'fatf-call-for-action' | 'fatf-increased-monitoring' | 'watched-origin-of-funds';
  field: string;
  value: string | boolean;
  level: Exclude<RiskLevel, 'low'>;
  source: string;
}

export interface AuditEntry {
  id: number;
  occurredAt: string;
  actor: string;
  action: string;
  subject: string;
  details?: Record<string, unknown>;
}

export interface ApplicationPage {
  id: string;
  status: string;
  path: 'freelance' | 'company' | null;
  language: 'es' | 'en';
  createdAt: string;
  updatedAt: string;
  currentStep: string;
  applicant: { name: string; email: string; idDocument: string; idType: unknown };
  steps: { step: string; section: string; fields: { field: string; label: string; value: unknown }[] }[];
  documents: DocumentView[];
  identityCheck: { status: string; provider: string; startedAt: string; decidedAt?: string; reason?: string; flags?: string[]; reviewer?: string } | null;
  risk: { level: RiskLevel | null; reasons: RiskReason[]; fourEyes: boolean };
  contract: { sha256: string; contractSha256: string; signedAt: string; templateVersion?: string } | null;
  /** Contracts signed before the bank asked for more information. */
  supersededContracts: { sha256: string; signedAt: string; supersededAt: string }[];
  /** The steps a request for more information may reopen. */
  reopenable: string[];
  review: {
    approvals?: { actor: string; at: string }[];
    rejection?: { templateId: string; text: string };
    moreInfo?: { steps: string[]; text: string; templateId?: string; requestedBy: string; at: string };
    awaiting: Awaiting | null;
    canAct: boolean;
  };
  audit: AuditEntry[];
}

export interface ReviewTemplate {
  id: string;
  kind: 'rejection' | 'more-info';
  title: { es: string; en: string };
  body: { es: string; en: string };
  updatedAt: string;
  updatedBy: string;
  retired: boolean;
}

/** The funnel of a period (GET /staff-api/funnel): counts and durations only. */
export interface Funnel {
  from: string;
  to: string;
  path: 'all' | 'freelance' | 'company';
  started: number;
  steps: { step: string; reached: number; stoppedHere: number; medianSeconds: number | null }[];
  decisions: { decision: 'approved' | 'rejected'; count: number; medianWaitSeconds: number | null }[];
}

export interface DecisionAnswer {
  status: string;
  already: boolean;
  awaitingSecondApproval: boolean;
  effectsPending: string[];
}

/** A refused or failed call: the HTTP status (or what went wrong on the way) and the server's stable code. */
export interface StaffApiError {
  status: number | 'FETCH_ERROR';
  code?: string;
}

/** Why the staff member is back at the sign-in: the session ran out, nobody answered the warning, or they signed out. */
export type SessionEnd = 'expired' | 'idle' | 'signed-out';

/** A session was started at the sign-in, or found by a page opened with one. */
export const staffSessionLive = createAction('staffSession/live');
/** The server answered a call of the session (which moves its idle end), at this time (epoch ms). */
export const staffCallAnswered = createAction<number>('staffSession/callAnswered');
/** The session is over (a page opened without one simply goes to the sign-in). */
export const staffSessionEnded = createAction<SessionEnd>('staffSession/ended');

export const STAFF_API_BASE = '/staff-api';

export const errorCodeOf = (data: unknown): string | undefined =>
  typeof data === 'object' && data !== null && 'code' in data ? String((data as { code: unknown }).code) : undefined;

/** What an endpoint asks for: a path under /staff-api, its method, query and JSON body. */
interface StaffRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: object;
  body?: object;
}

/**
 * Every call with the session's cookie, the app's language and the app's time-out. The server moves an idle
 * session's end at each call it answers (the warning counts from the last one); `401 NO_STAFF_SESSION` means the
 * session is over. (A base query of its own, not RTK's fetchBaseQuery: that one would ship in the code every page
 * shares.)
 */
const staffBaseQuery: BaseQueryFn<StaffRequest | string, unknown, StaffApiError> = async (args, api) => {
  const request = typeof args === 'string' ? { url: args } : args;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.params ?? {})) if (value !== undefined) query.set(name, String(value));
  const headers: Record<string, string> = { accept: 'application/json' };
  const locale = (api.getState() as { ui?: { locale?: string } }).ui?.locale;
  if (locale) headers['accept-language'] = locale;
  // Every write is JSON, an empty object when it has nothing to say: the server refuses a write its cookie
  // authorises in any other form, which a page of another origin could make the browser send.
  const method = request.method ?? 'GET';
  const body = method === 'GET' ? undefined : JSON.stringify(request.body ?? {});
  if (body !== undefined) headers['content-type'] = 'application/json';
  const touches = api.endpoint !== 'getConfig';
  let response: Response;
  try {
    const search = query.toString();
    response = await fetch(`${STAFF_API_BASE}/${request.url}${search ? `?${search}` : ''}`, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: AbortSignal.any([api.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
  } catch {
    return { error: { status: 'FETCH_ERROR' } };
  }
  const text = await response.text().catch(() => '');
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  if (response.ok) {
    if (touches) api.dispatch(staffCallAnswered(Date.now()));
    // A page opened with a session (its cookie) finds it live.
    if (api.endpoint === 'getStaffSession') api.dispatch(staffSessionLive());
    return { data };
  }
  const code = errorCodeOf(data);
  if (response.status === 401 && code === 'NO_STAFF_SESSION') api.dispatch(staffSessionEnded('expired'));
  else if (touches) api.dispatch(staffCallAnswered(Date.now()));
  return { error: { status: response.status, code } };
};

const applicationTags = (id: string) => [{ type: 'Application' as const, id }, 'Queue' as const];

/** How a person's erasure request was answered, application by application, and by when they must be told. */
export interface ErasureAnswer {
  answerDue: string;
  outcomes: { applicationId: string; outcome: 'erased' | 'refused' | 'already-erased'; ground?: string; law?: string }[];
}

export const backOfficeApi = createApi({
  reducerPath: 'backOfficeApi',
  baseQuery: staffBaseQuery,
  tagTypes: ['Session', 'Queue', 'Application', 'Templates', 'Funnel'],
  endpoints: (build) => ({
    getConfig: build.query<SignInConfig, void>({ query: () => 'config' }),
    getStaffSession: build.query<StaffSession, void>({ query: () => 'session', providesTags: ['Session'] }),
    signOut: build.mutation<void, void>({ query: () => ({ url: 'session', method: 'DELETE' }) }),
    getQueue: build.query<{ targetHours: number; applications: QueueEntry[] }, QueueFilter>({
      query: (filter) => ({ url: 'applications', params: filter }),
      providesTags: ['Queue'],
    }),
    getApplication: build.query<ApplicationPage, string>({
      query: (id) => `applications/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Application', id }],
    }),
    getTemplates: build.query<ReviewTemplate[], void>({ query: () => 'templates', providesTags: ['Templates'] }),
    approve: build.mutation<DecisionAnswer, string>({
      query: (id) => ({ url: `applications/${encodeURIComponent(id)}/approve`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => applicationTags(id),
    }),
    reject: build.mutation<DecisionAnswer, { id: string; reason: string; templateId?: string }>({
      query: ({ id, ...body }) => ({ url: `applications/${encodeURIComponent(id)}/reject`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { id }) => applicationTags(id),
    }),
    decideIdentity: build.mutation<{ status: string; identityCheck: string }, { id: string; decision: 'approve' | 'reject'; reason?: string }>({
      query: ({ id, ...body }) => ({ url: `applications/${encodeURIComponent(id)}/identity`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { id }) => applicationTags(id),
    }),
    requestMoreInfo: build.mutation<{ status: string; steps: string[] }, { id: string; steps: string[]; templateId?: string; message?: string }>({
      query: ({ id, ...body }) => ({ url: `applications/${encodeURIComponent(id)}/more-info`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { id }) => applicationTags(id),
    }),
    saveTemplate: build.mutation<ReviewTemplate, Omit<ReviewTemplate, 'updatedAt' | 'updatedBy'>>({
      query: ({ id, ...body }) => ({ url: `templates/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['Templates'],
    }),
    getFunnel: build.query<Funnel, { from: string; to: string; path: Funnel['path'] }>({
      query: (period) => ({ url: 'funnel', params: period }),
      providesTags: ['Funnel'],
    }),
    requestErasure: build.mutation<ErasureAnswer, { id: string; receivedOn: string }>({
      query: ({ id, receivedOn }) => ({ url: `applications/${encodeURIComponent(id)}/erasure-request`, method: 'POST', body: { receivedOn } }),
    }),
    addNote: build.mutation<void, { id: string; text: string }>({
      query: ({ id, text }) => ({ url: `applications/${encodeURIComponent(id)}/notes`, method: 'POST', body: { text } }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Application', id }],
    }),
    recordRelationshipEnd: build.mutation<{ endedOn: string; retainUntil: string; already: boolean }, { id: string; date: string }>({
      query: ({ id, date }) => ({ url: `applications/${encodeURIComponent(id)}/relationship-end`, method: 'POST', body: { date } }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Application', id }],
    }),
  }),
});

export const {
  useGetConfigQuery,
  useGetStaffSessionQuery,
  useSignOutMutation,
  useGetQueueQuery,
  useGetApplicationQuery,
  useGetTemplatesQuery,
  useApproveMutation,
  useRejectMutation,
  useDecideIdentityMutation,
  useAddNoteMutation,
  useRequestErasureMutation,
  useRecordRelationshipEndMutation,
  useRequestMoreInfoMutation,
  useSaveTemplateMutation,
  useGetFunnelQuery,
} = backOfficeApi;

interface StaffSessionState {
  /** A session was started or found in this page. */
  live: boolean;
  /** When the server last answered a call of the session, epoch ms: the idle end counts from it. */
  lastCallAt: number | null;
  ended: SessionEnd | null;
}

const initialState: StaffSessionState = { live: false, lastCallAt: null, ended: null };

/** The staff session as this page knows it. It holds no token or code: the session is an HttpOnly cookie. */
const staffSessionSlice = createSlice({
  name: 'staffSession',
  initialState,
  reducers: {},
  extraReducers: (builder) =>
    builder
      .addCase(staffSessionLive, (state) => ({ ...state, live: true, ended: null }))
      .addCase(staffCallAnswered, (state, action) => ({ ...state, lastCallAt: action.payload }))
      .addCase(staffSessionEnded, (state, action) => (state.live ? { live: false, lastCallAt: null, ended: action.payload } : state)),
});

type WithStaffSession = { [staffSessionSlice.name]?: StaffSessionState };
export const selectStaffSession = (state: unknown): StaffSessionState => (state as WithStaffSession)[staffSessionSlice.name] ?? initialState;

/** The store's dispatch as the back office's code knows it: with its API's state (joined when its code arrived). */
export const useBackOfficeDispatch = useDispatch.withTypes<ThunkDispatch<{ [backOfficeApi.reducerPath]: ReturnType<typeof backOfficeApi.reducer> }, unknown, UnknownAction>>();

/** What the back office adds to the store when its code arrives. */
export const backOfficeFeatures: StoreFeature[] = [
  { reducerPath: backOfficeApi.reducerPath, reducer: backOfficeApi.reducer, middleware: backOfficeApi.middleware },
  { reducerPath: staffSessionSlice.name, reducer: staffSessionSlice.reducer },
];

/**
 * Trades a fresh sign-in's ID token for the session cookie. A plain request, not an endpoint: the token never
 * becomes an action's argument or a piece of state (nor reaches the DevTools).
 */
export async function startStaffSession(idToken: string, fetchImpl: typeof fetch = fetch): Promise<{ session: StaffSession } | { error: StaffApiError }> {
  try {
    const response = await fetchImpl(`${STAFF_API_BASE}/session`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ idToken }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status === 201) return { session: body as StaffSession };
    return { error: { status: response.status, code: errorCodeOf(body) } };
  } catch {
    return { error: { status: 'FETCH_ERROR' } };
  }
}
