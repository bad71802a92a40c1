// The bank's back office API (docs/back-office.md): staff sign in to their own user pool (a password and an
// authenticator app's code), trade that fresh sign-in for a session here, and every call is then authorised by
// the roles they signed in with and audited with who they are. Decisions go through the review's services, the
// same `npm run admin` uses: nothing is decided in two places.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../apiError';
import type { Config } from '../../config';
import { STAFF_ROLES, type StaffRole } from '../../plugins/identity';
import { personalDataRoutes } from './personalData';
import { answersPersonalData } from '../../plugins/personalData';
import { reviewTemplateRepository } from '../../repositories/reviewTemplateRepository';
import { staffSessionRepository, type StaffSession } from '../../repositories/staffSessionRepository';
import { applicationPage, queueOf, type StaffMember } from '../../services/backOffice';
import { funnelOf, type FunnelPath } from '../../services/funnel';
import { IdentityError } from '../../services/identity';
import { RelationshipEndError, recordRelationshipEnd, type RelationshipEndRefusal } from '../../services/relationshipEnd';
import { isBlockedApplication, type RetentionSettings } from '../../services/retention';
import { retentionRepository } from '../../repositories/retentionRepository';
import {
  addNote,
  applicationAudit,
  approveApplication,
  decideIdentity,
  EffectsPendingError,
  rejectApplication,
  requestMoreInformation,
  REVIEW_TEXT_MAX,
  reviewStateOf,
  ReviewError,
  type DecisionOutcome,
  type ReviewRefusal,
} from '../../services/reviews';

const STAFF_COOKIE = 'divilo_staff';
/** HttpOnly, Secure, SameSite=Strict, and sent to the staff API only. */
const STAFF_COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: 'strict', path: '/staff-api' } as const;

/** How old a sign-in may be when it is traded for a session: a token found later starts nothing. */
const STAFF_SIGN_IN_MAX_AGE_SECONDS = 300;
/** The longest period the funnel counts at once (its work grows with the sign-ups in it). */
const FUNNEL_MAX_DAYS = 366;
/** How far ahead of this server's clock the identity service's may be. */
const CLOCK_SKEW_SECONDS = 60;

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff member of the session the request came with (set for every route but the session's start). */
    staff?: StaffMember & { session: StaffSession };
  }
}

interface StaffSettings {
  /** The identity service (its region and, embedded, its endpoint) and the staff pool's ids. */
  config: { region: string; endpoint?: string; staff: NonNullable<Config['staff']> };
  idleSeconds: number;
  /** How long before the end of an idle session the page warns (the customers' SESSION_WARNING_SECONDS). */
  warningSeconds: number;
  maxSeconds: number;
  targetHours: number;
  /** Where locales/{es,en}.json are: a person's data is exported with the labels they read. */
  localesDir: string;
  /** The law's periods (RETENTION_CUSTOMER_YEARS, RETENTION_REFUSED_YEARS). */
  retention: RetentionSettings;
}

const hashed = (value: string) => createHash('sha256').update(value).digest('hex');

/** The status and stable code a review refusal answers with. */
const REFUSAL_STATUS: Record<ReviewRefusal, number> = {
  APPLICATION_NOT_FOUND: 404,
  CONCURRENT_CHANGE: 409,
  ALREADY_DECIDED: 409,
  NOT_DECIDABLE: 409,
  IDENTITY_NOT_APPROVED: 409,
  ID_DOCUMENT_HELD: 409,
  SECOND_APPROVER_NEEDED: 409,
  REASON_REQUIRED: 400,
  TEMPLATE_NOT_FOUND: 400,
  EFFECTS_PENDING: 502,
  SIGN_IN_USER_PENDING: 503,
  STEP_NOT_REOPENABLE: 400,
  INVALID_REQUEST: 400,
};

/** The status each refusal to record an end of relationship answers with. */
const RELATIONSHIP_END_STATUS: Record<RelationshipEndRefusal, number> = {
  APPLICATION_NOT_FOUND: 404,
  NOT_A_CUSTOMER: 409,
  RELATIONSHIP_ALREADY_ENDED: 409,
  INVALID_DATE: 400,
  DATE_IN_FUTURE: 400,
  DATE_BEFORE_APPROVAL: 400,
};

/** A review service's refusal in the API's terms; anything else is left as it is. */
async function refusedInApiTerms<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof EffectsPendingError) throw new ApiError(REFUSAL_STATUS[error.code], error.code, error.message, { pending: error.pending });
    if (error instanceof ReviewError) throw new ApiError(REFUSAL_STATUS[error.code], error.code, error.message);
    throw error;
  }
}

const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$' } }, required: ['id'] } as const;
const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;
const ERRORS = { '4xx': { $ref: 'error#' }, '5xx': { $ref: 'error#' } } as const;
const SESSION_ANSWER = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    roles: { type: 'array', items: { type: 'string' } },
    idleSeconds: { type: 'integer' },
    expiresAt: { type: 'string' },
  },
  required: ['username', 'roles', 'idleSeconds', 'expiresAt'],
} as const;
const TEXT = { type: 'string', minLength: 1, maxLength: REVIEW_TEXT_MAX } as const;
const BOTH_LANGUAGES = (maxLength: number) =>
  ({ type: 'object', properties: { es: { type: 'string', minLength: 1, maxLength }, en: { type: 'string', minLength: 1, maxLength } }, required: ['es', 'en'], additionalProperties: false }) as const;

/** The type a stored document's first bytes say it is: the only types the onboarding takes. */
function contentTypeOf(bytes: Buffer): string {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  return 'application/octet-stream';
}

export async function staffRoutes(app: FastifyInstance, settings: StaffSettings) {
  const { config } = settings;
  const staffIdentity = app.staffIdentity;
  if (!staffIdentity) throw new Error('staffRoutes: the configuration has no staff pool');
  answersPersonalData(app);
  const sessions = staffSessionRepository(app.db);
  const templates = reviewTemplateRepository(app.db);
  const reviews = { ...app.reviewDependencies, templates };

  const audit = (request: FastifyRequest, action: string, subject: string, details?: Record<string, unknown>) =>
    app.auditLog.append({ actor: `staff:${request.staff!.username}`, action, subject, requestId: request.id, details }, app.clock());

  /** Who is asking: the live session of the cookie (its last use moved to now), or 401. */
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const cookie = request.cookies[STAFF_COOKIE];
    const session = cookie ? await sessions.touchLive(hashed(cookie), settings.idleSeconds, app.clock()) : undefined;
    if (!session) {
      if (cookie) reply.clearCookie(STAFF_COOKIE, STAFF_COOKIE_OPTIONS);
      throw new ApiError(401, 'NO_STAFF_SESSION', 'Sign in to the back office');
    }
    request.staff = { username: session.username, roles: session.roles, session };
  };
  /** The roles a route takes: a member with none of them is refused, and the refusal is audited. */
  const allow = (...roles: StaffRole[]) => allowWhen((held) => roles.some((role) => held.includes(role)), roles);
  /** The same, for a right decided by one function of the roles (`roles`: those that have it today, as told). */
  const allowWhen =
    (may: (roles: readonly string[]) => boolean, roles: StaffRole[]) =>
    async (request: FastifyRequest) => {
      if (may(request.staff!.roles)) return;
      await audit(request, 'backoffice.refused', `staff:${request.staff!.username}`, { route: request.routeOptions.url, roles });
      throw new ApiError(403, 'ROLE_REQUIRED', `This needs the role ${roles.join(' or ')}`, { roles });
    };
  const member = (request: FastifyRequest): StaffMember => ({ username: request.staff!.username, roles: request.staff!.roles });
  const retention = retentionRepository(app.db);
  /**
   * The application, or 404 as if there were none: also for a blocked one (a customer whose relationship ended five
   * years ago or more, Ley 10/2010 art. 25; one kept for the law alone after its person asked for its erasure, LOPDGDD
   * art. 32), which only internal control (`compliance`) may read. Answers whether it is so.
   */
  const applicationOrRefuse = async (id: string, request: FastifyRequest) => {
    const application = await app.applications.find(id);
    if (!application) throw new ApiError(404, 'APPLICATION_NOT_FOUND', `No application ${id}`);
    const status = await retention.statusOf(id);
    const blocked = status !== undefined && isBlockedApplication(status, app.clock());
    if (blocked && !request.staff!.roles.includes('compliance')) throw new ApiError(404, 'APPLICATION_NOT_FOUND', `No application ${id}`);
    return { application, blocked };
  };

  // What the back office's page signs in with: the staff pool and its client (nothing secret, as /config.json).
  const signInConfig = {
    region: config.region,
    userPoolId: config.staff.userPoolId,
    clientId: config.staff.clientId,
    endpoint: config.endpoint,
    idleSeconds: settings.idleSeconds,
    warningSeconds: settings.warningSeconds,
  };
  app.get(
    '/config',
    {
      schema: {
        tags: ['back office'],
        summary: "The staff pool the back office's page signs in to, and how long an idle session lasts",
        response: {
          200: {
            type: 'object',
            properties: {
              region: { type: 'string' },
              userPoolId: { type: 'string' },
              clientId: { type: 'string' },
              endpoint: { type: 'string' },
              idleSeconds: { type: 'integer' },
              warningSeconds: { type: 'integer' },
            },
            required: ['region', 'userPoolId', 'clientId', 'idleSeconds', 'warningSeconds'],
          },
        },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(signInConfig),
  );

  // Every write here rides on the staff cookie (the sign-in's too: it sets it).
  app.addHook('onRequest', app.sameOriginWrites({ json: true }));

  app.post<{ Body: { idToken: string } }>(
    '/session',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['back office'],
        summary: "Trades a fresh sign-in of the staff pool (its ID token) for a back-office session",
        description:
          'The ID token of a sign-in at most 5 minutes old (password and authenticator code), one session per sign-in (its origin_jti, renewals included): 201 and the session cookie. ' +
          '401 INVALID_TOKEN (not the staff pool\'s, expired), 401 SIGN_IN_NOT_FRESH, 409 SIGN_IN_USED, 403 NO_ROLE.',
        body: { type: 'object', properties: { idToken: { type: 'string', minLength: 1, maxLength: 8192 } }, required: ['idToken'], additionalProperties: false },
        response: { 201: SESSION_ANSWER, ...ERRORS },
      },
    },
    async (request, reply) => {
      let claims;
      try {
        claims = await staffIdentity.verifyIdToken(request.body.idToken);
      } catch (error) {
        if (error instanceof IdentityError && error.code === 'UNAVAILABLE') throw new ApiError(503, 'IDENTITY_UNAVAILABLE', 'The identity service cannot be reached');
        throw new ApiError(401, 'INVALID_TOKEN', 'Sign in again');
      }
      const now = app.clock();
      const age = now.getTime() / 1000 - Number(claims.auth_time);
      if (!Number.isFinite(age) || age < -CLOCK_SKEW_SECONDS || age > STAFF_SIGN_IN_MAX_AGE_SECONDS) throw new ApiError(401, 'SIGN_IN_NOT_FRESH', 'Sign in again');
      const groups = Array.isArray(claims['cognito:groups']) ? (claims['cognito:groups'] as unknown[]) : [];
      const roles = STAFF_ROLES.filter((role) => groups.includes(role));
      const username = claims['cognito:username'];
      if (roles.length === 0) {
        await app.auditLog.append({ actor: `staff:${username}`, action: 'backoffice.refused', subject: `staff:${username}`, requestId: request.id, details: { why: 'no-role' } }, now);
        throw new ApiError(403, 'NO_ROLE', 'Your account has no back-office role: ask an administrator');
      }
      // One session per sign-in: a sign-in's tokens share its origin_jti, renewed ones too (each ID token has a jti
      // of its own, so a refresh token would otherwise open a session per renewal within the five minutes).
      const signIn = claims.origin_jti;
      if (typeof signIn !== 'string' || signIn === '') throw new ApiError(401, 'INVALID_TOKEN', 'Sign in again');
      const value = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + settings.maxSeconds * 1000);
      if (!(await sessions.create({ idHash: hashed(value), username, sub: claims.sub, roles, tokenJti: signIn, expiresAt }, now))) {
        throw new ApiError(409, 'SIGN_IN_USED', 'This sign-in started a session already: sign in again');
      }
      await app.auditLog.append({ actor: `staff:${username}`, action: 'backoffice.session_started', subject: `staff:${username}`, requestId: request.id, details: { roles } }, now);
      reply.setCookie(STAFF_COOKIE, value, STAFF_COOKIE_OPTIONS);
      return reply.code(201).send({ username, roles, idleSeconds: settings.idleSeconds, expiresAt: expiresAt.toISOString() });
    },
  );

  app.register(async (area) => {
    area.addHook('preHandler', authenticate);

    area.get(
      '/session',
      { schema: { tags: ['back office'], summary: 'The staff member of this session, their roles and how long an idle session lasts', response: { 200: SESSION_ANSWER, ...ERRORS } } },
      async (request) => ({ username: request.staff!.username, roles: request.staff!.roles, idleSeconds: settings.idleSeconds, expiresAt: request.staff!.session.expiresAt }),
    );

    area.delete('/session', { schema: { tags: ['back office'], summary: 'Ends this session', response: { 204: { type: 'null' }, ...ERRORS } } }, async (request, reply) => {
      await sessions.revoke(request.staff!.session.idHash, app.clock());
      await audit(request, 'backoffice.session_ended', `staff:${request.staff!.username}`);
      reply.clearCookie(STAFF_COOKIE, STAFF_COOKIE_OPTIONS);
      return reply.code(204).send();
    });

    area.get<{ Querystring: { path?: 'freelance' | 'company'; risk?: 'low' | 'medium' | 'high'; awaiting?: 'identity-review' | 'decision' | 'second-approval'; minWaitHours?: number; mine?: boolean; order?: 'oldest' | 'newest' } }>(
      '/applications',
      {
        preHandler: allow('reviewer', 'approver'),
        schema: {
          tags: ['back office'],
          summary: 'The applications waiting for the bank, the longest waiting first, measured against the review target',
          querystring: {
            type: 'object',
            properties: {
              path: { type: 'string', enum: ['freelance', 'company'] },
              risk: { type: 'string', enum: ['low', 'medium', 'high'] },
              awaiting: { type: 'string', enum: ['identity-review', 'decision', 'second-approval'] },
              minWaitHours: { type: 'number', minimum: 0, maximum: 100_000 },
              mine: { type: 'boolean' },
              order: { type: 'string', enum: ['oldest', 'newest'] },
            },
            additionalProperties: false,
          },
          response: { 200: { type: 'object', properties: { targetHours: { type: 'number' }, applications: { type: 'array', items: OPEN_OBJECT } }, required: ['targetHours', 'applications'] }, ...ERRORS },
        },
      },
      async (request) => ({
        targetHours: settings.targetHours,
        applications: await queueOf({ applications: app.applications, highRiskCountries: app.highRiskCountries }, member(request), request.query, { targetHours: settings.targetHours }, app.clock()),
      }),
    );

    area.get<{ Params: { id: string } }>(
      '/applications/:id',
      {
        preHandler: allow('reviewer', 'approver', 'compliance'),
        schema: {
          tags: ['back office'],
          summary: "One application: its answers step by step with the labels the applicant saw, documents (their hashes checked now), identity check, risk and its reasons, contract, review and audit trail",
          params: ID_PARAMS,
          response: { 200: OPEN_OBJECT, ...ERRORS },
        },
      },
      async (request) => {
        const { application, blocked } = await applicationOrRefuse(request.params.id, request);
        const page = await applicationPage(
          {
            contracts: app.contracts,
            documents: (id) => app.onboardingDocuments.list(id),
            digest: (key) => app.documents.digest(key),
            audit: (id) => applicationAudit(app, id),
            highRiskCountries: app.highRiskCountries,
          },
          application,
          member(request),
        );
        // Who read an applicant's file is the bank's record too.
        await audit(request, 'backoffice.application_viewed', `application:${application.id}`, blocked ? { blocked } : undefined);
        return page;
      },
    );

    area.get<{ Params: { id: string; kind: string } }>(
      '/applications/:id/documents/:kind',
      {
        preHandler: allow('reviewer', 'approver', 'compliance'),
        schema: {
          tags: ['back office'],
          summary: 'A document of an application as the bank keeps it: its evidence copy, refused (409 EVIDENCE_CHANGED) unless it still has its recorded SHA-256',
          params: { type: 'object', properties: { id: ID_PARAMS.properties.id, kind: { type: 'string', pattern: '^[A-Za-z0-9]{1,40}$' } }, required: ['id', 'kind'] },
          response: ERRORS,
        },
      },
      async (request, reply) => {
        const { application, blocked } = await applicationOrRefuse(request.params.id, request);
        const document = (await app.onboardingDocuments.list(application.id)).find((candidate) => candidate.kind === request.params.kind);
        if (!document) throw new ApiError(404, 'DOCUMENT_NOT_FOUND', `Application ${application.id} has no ${request.params.kind}`);
        let bytes: Buffer;
        try {
          bytes = document.evidenceKey && document.sha256 ? await app.documents.readEvidence(document.evidenceKey, document.sha256) : await app.documents.read(document.key, document.etag);
        } catch (error) {
          const name = (error as { name?: string }).name;
          if (name === 'NoSuchKey' || name === 'PreconditionFailed') throw new ApiError(409, 'EVIDENCE_MISSING', `The ${document.kind} kept for this application is missing or changed`);
          if (error instanceof Error && /does not match/.test(error.message)) throw new ApiError(409, 'EVIDENCE_CHANGED', `The ${document.kind} kept for this application does not match its recorded SHA-256: do not rely on it`);
          throw error;
        }
        await audit(request, 'backoffice.document_viewed', `application:${application.id}`, { kind: document.kind, sha256: document.sha256, ...(blocked ? { blocked } : {}) });
        return reply
          .type(contentTypeOf(bytes))
          .header('content-disposition', `inline; filename="${document.kind}"`)
          .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self'; object-src 'self'")
          .header('x-content-type-options', 'nosniff')
          .send(bytes);
      },
    );

    area.get<{ Params: { id: string } }>(
      '/applications/:id/contract',
      {
        preHandler: allow('reviewer', 'approver', 'compliance'),
        schema: { tags: ['back office'], summary: 'The signed, sealed contract, refused (409 EVIDENCE_CHANGED) unless it has its recorded SHA-256', params: ID_PARAMS, response: ERRORS },
      },
      async (request, reply) => {
        const { application, blocked } = await applicationOrRefuse(request.params.id, request);
        const [recorded, pdf] = await Promise.all([app.contracts.find(application.id), app.contracts.pdf(application.id)]);
        if (!recorded || !pdf) throw new ApiError(404, 'CONTRACT_NOT_FOUND', `Application ${application.id} has no signed contract`);
        if (createHash('sha256').update(pdf).digest('hex') !== recorded.sha256) {
          throw new ApiError(409, 'EVIDENCE_CHANGED', 'The stored contract does not match its recorded SHA-256: do not rely on it');
        }
        await audit(request, 'backoffice.contract_viewed', `application:${application.id}`, blocked ? { blocked } : undefined);
        return reply.type('application/pdf').header('content-disposition', 'inline; filename="contract.pdf"').header('x-content-type-options', 'nosniff').send(pdf);
      },
    );

    personalDataRoutes(area, { allowWhen, applicationOrRefuse, localesDir: settings.localesDir });

    const decisionAnswer = (outcome: DecisionOutcome) => ({
      status: outcome.application.status,
      already: outcome.already,
      awaitingSecondApproval: outcome.awaitingSecondApproval ?? false,
      effectsPending: [] as string[],
    });
    const DECISION_ANSWER = {
      type: 'object',
      properties: { status: { type: 'string' }, already: { type: 'boolean' }, awaitingSecondApproval: { type: 'boolean' }, effectsPending: { type: 'array', items: { type: 'string' } } },
      required: ['status', 'already', 'awaitingSecondApproval', 'effectsPending'],
    } as const;

    /**
     * A decision recorded whose effects outside the database are not all done (the user pool unreachable) is still
     * the decision: 202 with what is pending, which the next run or housekeeping finishes.
     */
    const decided = async (reply: FastifyReply, work: Promise<DecisionOutcome>, id: string) => {
      try {
        return decisionAnswer(await refusedInApiTerms(work));
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'EFFECTS_PENDING')) throw error;
        const application = await app.applications.find(id);
        reply.code(202);
        return { status: application?.status ?? 'unknown', already: false, awaitingSecondApproval: false, effectsPending: pendingOf(error) };
      }
    };
    const pendingOf = (error: ApiError) => (error.details?.pending as string[] | undefined) ?? [];

    area.post<{ Params: { id: string } }>(
      '/applications/:id/approve',
      {
        preHandler: allow('approver'),
        schema: {
          tags: ['back office'],
          summary: 'Approves a signed application whose identity is approved; a high-risk one needs two approvers, the second decides',
          params: ID_PARAMS,
          response: { 200: DECISION_ANSWER, 202: DECISION_ANSWER, ...ERRORS },
        },
      },
      async (request, reply) => decided(reply, approveApplication(reviews, request.params.id, member(request), app.clock()), request.params.id),
    );

    area.post<{ Params: { id: string }; Body: { reason: string; templateId?: string } }>(
      '/applications/:id/reject',
      {
        preHandler: allow('reviewer', 'approver'),
        schema: {
          tags: ['back office'],
          summary: "Rejects an application: the reason is the bank's; the template's words, if one is named, go to the applicant in their language",
          params: ID_PARAMS,
          body: { type: 'object', properties: { reason: TEXT, templateId: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' } }, required: ['reason'], additionalProperties: false },
          response: { 200: DECISION_ANSWER, 202: DECISION_ANSWER, ...ERRORS },
        },
      },
      async (request, reply) =>
        decided(reply, rejectApplication(reviews, request.params.id, request.body.reason, member(request), app.clock(), request.body.templateId), request.params.id),
    );

    area.post<{ Params: { id: string }; Body: { decision: 'approve' | 'reject'; reason?: string } }>(
      '/applications/:id/identity',
      {
        preHandler: allow('reviewer', 'approver'),
        schema: {
          tags: ['back office'],
          summary: "Decides an identity check waiting for review (the photos); rejecting a signed application's rejects the application",
          params: ID_PARAMS,
          body: { type: 'object', properties: { decision: { type: 'string', enum: ['approve', 'reject'] }, reason: TEXT }, required: ['decision'], additionalProperties: false },
          response: { 200: { type: 'object', properties: { status: { type: 'string' }, identityCheck: { type: 'string' } }, required: ['status', 'identityCheck'] }, ...ERRORS },
        },
      },
      async (request) => {
        const application = await refusedInApiTerms(decideIdentity(reviews, request.params.id, request.body.decision, member(request), app.clock(), request.body.reason));
        return { status: application.status, identityCheck: (application.answers.identityCheck as { status: string }).status };
      },
    );

    area.post<{ Params: { id: string }; Body: { steps: string[]; templateId?: string; message?: string } }>(
      '/applications/:id/more-info',
      {
        preHandler: allow('reviewer', 'approver'),
        schema: {
          tags: ['back office'],
          summary: 'Sends a signed application back to its applicant: the steps named reopen, the applicant is e-mailed the words, and signs again once done',
          description: '400 STEP_NOT_REOPENABLE for a step outside the business section of this application; 409 NOT_DECIDABLE unless signed (pending-review).',
          params: ID_PARAMS,
          body: {
            type: 'object',
            properties: {
              steps: { type: 'array', items: { type: 'string', pattern: '^[a-z-]{1,40}$' }, minItems: 1, maxItems: 20, uniqueItems: true },
              templateId: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' },
              message: { type: 'string', maxLength: REVIEW_TEXT_MAX },
            },
            required: ['steps'],
            additionalProperties: false,
          },
          response: { 200: { type: 'object', properties: { status: { type: 'string' }, steps: { type: 'array', items: { type: 'string' } } }, required: ['status', 'steps'] }, ...ERRORS },
        },
      },
      async (request) => {
        const application = await refusedInApiTerms(requestMoreInformation(reviews, request.params.id, request.body, member(request), app.clock()));
        return { status: application.status, steps: reviewStateOf(application).moreInfo!.steps };
      },
    );

    area.post<{ Params: { id: string }; Body: { text: string } }>(
      '/applications/:id/notes',
      {
        preHandler: allow('reviewer', 'approver'),
        schema: {
          tags: ['back office'],
          summary: 'An internal note for the other reviewers, kept in the audit trail; never shown to the applicant',
          params: ID_PARAMS,
          body: { type: 'object', properties: { text: TEXT }, required: ['text'], additionalProperties: false },
          response: { 204: { type: 'null' }, ...ERRORS },
        },
      },
      async (request, reply) => {
        await applicationOrRefuse(request.params.id, request);
        await refusedInApiTerms(addNote(reviews, request.params.id, request.body.text, member(request), app.clock()));
        return reply.code(204).send();
      },
    );

    area.post<{ Params: { id: string }; Body: { date: string } }>(
      '/applications/:id/relationship-end',
      {
        preHandler: allow('administrator', 'compliance'),
        schema: {
          tags: ['back office'],
          summary: "Records the last day of an approved customer's relationship: their evidence is then locked until ten years after it",
          description:
            '400 INVALID_DATE, DATE_IN_FUTURE or DATE_BEFORE_APPROVAL; 404 APPLICATION_NOT_FOUND; 409 NOT_A_CUSTOMER unless approved, RELATIONSHIP_ALREADY_ENDED for another date than the one recorded (the same date again answers `already`).',
          params: ID_PARAMS,
          body: { type: 'object', properties: { date: { type: 'string', maxLength: 10 } }, required: ['date'], additionalProperties: false },
          response: {
            200: { type: 'object', properties: { endedOn: { type: 'string' }, retainUntil: { type: 'string' }, already: { type: 'boolean' } }, required: ['endedOn', 'retainUntil', 'already'] },
            ...ERRORS,
          },
        },
      },
      async (request) => {
        try {
          return await recordRelationshipEnd(
            { db: app.db, retainEvidence: (id, until) => app.documents.retainEvidence(id, until), retention: settings.retention },
            request.params.id,
            request.body.date,
            `staff:${request.staff!.username}`,
            app.clock(),
            request.id,
          );
        } catch (error) {
          if (error instanceof RelationshipEndError) throw new ApiError(RELATIONSHIP_END_STATUS[error.code], error.code, error.message);
          throw error;
        }
      },
    );

    area.get<{ Querystring: { from: string; to: string; path?: FunnelPath } }>(
      '/funnel',
      {
        preHandler: allow('reviewer', 'approver', 'administrator'),
        schema: {
          tags: ['back office'],
          summary: 'How far the applicants who signed up in a period went, step by step, and the decisions taken in it: counts and durations, nothing personal',
          querystring: {
            type: 'object',
            properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' }, path: { type: 'string', enum: ['all', 'freelance', 'company'] } },
            required: ['from', 'to'],
            additionalProperties: false,
          },
          response: { 200: OPEN_OBJECT, ...ERRORS },
        },
      },
      async (request) => {
        // Whole days in UTC, `to` included: the page asks for dates, as a person names a period.
        const from = new Date(`${request.query.from}T00:00:00.000Z`);
        const to = new Date(Date.parse(`${request.query.to}T00:00:00.000Z`) + 86_400_000);
        if (to.getTime() <= from.getTime()) throw new ApiError(400, 'INVALID_PERIOD', 'The period ends before it starts');
        if (to.getTime() - from.getTime() > FUNNEL_MAX_DAYS * 86_400_000) throw new ApiError(400, 'INVALID_PERIOD', `A period is at most ${FUNNEL_MAX_DAYS} days`);
        const funnel = await funnelOf(app.db, { from, to, path: request.query.path ?? 'all' });
        return { ...funnel, from: funnel.from.toISOString(), to: funnel.to.toISOString() };
      },
    );

    area.get(
      '/templates',
      {
        preHandler: allow('reviewer', 'approver', 'administrator'),
        schema: { tags: ['back office'], summary: 'The templates of rejections and requests for more information, retired ones marked', response: { 200: { type: 'array', items: OPEN_OBJECT }, ...ERRORS } },
      },
      async () => templates.list(),
    );

    area.put<{ Params: { id: string }; Body: { kind: 'rejection' | 'more-info'; title: { es: string; en: string }; body: { es: string; en: string }; retired?: boolean } }>(
      '/templates/:id',
      {
        preHandler: allow('administrator'),
        schema: {
          tags: ['back office'],
          summary: "Writes a template (new or changed) in both languages; a template's kind never changes",
          params: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' } }, required: ['id'] },
          body: {
            type: 'object',
            properties: { kind: { type: 'string', enum: ['rejection', 'more-info'] }, title: BOTH_LANGUAGES(120), body: BOTH_LANGUAGES(2000), retired: { type: 'boolean' } },
            required: ['kind', 'title', 'body'],
            additionalProperties: false,
          },
          response: { 200: OPEN_OBJECT, 201: OPEN_OBJECT, ...ERRORS },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const outcome = await templates.save({ id, ...request.body, retired: request.body.retired ?? false, updatedBy: `staff:${request.staff!.username}` }, app.clock());
        if (outcome === 'kind-differs') throw new ApiError(409, 'TEMPLATE_KIND_DIFFERS', `Template ${id} is of another kind: name a new one`);
        await audit(request, `backoffice.template_${outcome}`, `template:${id}`, { kind: request.body.kind, retired: request.body.retired ?? false });
        return reply.code(outcome === 'created' ? 201 : 200).send(await templates.find(id));
      },
    );
  });
}
