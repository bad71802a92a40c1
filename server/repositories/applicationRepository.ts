import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';
import { auditLogRepository, type AuditEntry } from './auditLogRepository';

/** `expired`: inactive too long, being removed by housekeeping (a row in that state is one whose removal is not finished). */
export type ApplicationStatus = 'in-progress' | 'not-allowed' | 'pending-review' | 'approved' | 'rejected' | 'expired';

export interface Registration {
  id: string;
  email: string;
  idType: string;
  idDocument: string;
  answers: Record<string, unknown>;
  language: 'es' | 'en';
  expiresAt: string;
}

export interface Application {
  id: string;
  status: ApplicationStatus;
  email: string;
  idDocument: string;
  personType: 'freelance' | 'company' | null;
  answers: Record<string, unknown>;
  completedSteps: string[];
  riskfactor: string | null;
  language: 'es' | 'en';
  version: number;
  createdAt: string;
  updatedAt: string;
}

type ApplicationRow = Database['onboarding_applications'];

export type ApplicationChanges = Partial<Pick<Application, 'answers' | 'completedSteps' | 'status' | 'personType' | 'riskfactor'>>;

async function saveOn(db: Kysely<Database>, application: Application, changes: ApplicationChanges, now: Date): Promise<Application | undefined> {
  const next = { ...application, ...changes, version: application.version + 1, updatedAt: toDbTime(now) };
  const result = await db
    .updateTable('onboarding_applications')
    .set({
      answers: JSON.stringify(next.answers),
      completed_steps: JSON.stringify(next.completedSteps),
      status: next.status,
      person_type: next.personType,
      riskfactor: next.riskfactor,
      version: next.version,
      updated_at: next.updatedAt,
    })
    .where('id', '=', application.id)
    .where('version', '=', application.version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? next : undefined;
}

function toApplication(row: ApplicationRow): Application {
  return {
    id: row.id,
    status: row.status as ApplicationStatus,
    email: row.email,
    idDocument: row.id_document,
    personType: row.person_type as Application['personType'],
    answers: JSON.parse(row.answers) as Record<string, unknown>,
    completedSteps: JSON.parse(row.completed_steps) as string[],
    riskfactor: row.riskfactor,
    language: row.language as Application['language'],
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What makes an application open, as the unique index of open applications says it (migration 0032). */
const OPEN_APPLICATION = sql<SqlBool>`status in ('in-progress', 'not-allowed')`;

export type NewApplication = Pick<Application, 'email' | 'idDocument' | 'answers' | 'completedSteps' | 'language'>;

/** Registrations waiting for their e-mail code, and the applications they become. */
export function applicationRepository(db: Kysely<Database>) {
  /**
   * A new application in progress, unless its applicant (ID document and e-mail) has one open (in progress or
   * refused): then undefined. One insert, against a unique index of the open applications: of two confirmed at
   * the same moment, one is created.
   */
  async function createUnlessOpen(input: NewApplication, now: Date): Promise<Application | undefined> {
    const row: ApplicationRow = {
      id: randomUUID(),
      status: 'in-progress',
      email: input.email,
      id_document: input.idDocument,
      person_type: null,
      answers: JSON.stringify(input.answers),
      completed_steps: JSON.stringify(input.completedSteps),
      riskfactor: null,
      language: input.language,
      version: 1,
      created_at: toDbTime(now),
      updated_at: toDbTime(now),
      relationship_ended_on: null,
    };
    const inserted = await db
      .insertInto('onboarding_applications')
      .values(row)
      .onConflict((conflict) => conflict.columns(['id_document', 'email']).where(OPEN_APPLICATION).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted && toApplication(row);
  }

  return {
    async createRegistration(input: Omit<Registration, 'id' | 'expiresAt'>, ttlSeconds: number, now: Date): Promise<Registration> {
      const registration = { ...input, id: randomUUID(), expiresAt: toDbTime(new Date(now.getTime() + ttlSeconds * 1000)) };
      await db
        .insertInto('onboarding_registrations')
        .values({
          id: registration.id,
          email: input.email,
          id_type: input.idType,
          id_document: input.idDocument,
          answers: JSON.stringify(input.answers),
          language: input.language,
          created_at: toDbTime(now),
          expires_at: registration.expiresAt,
        })
        .execute();
      return registration;
    },

    async findRegistration(id: string, now: Date): Promise<Registration | undefined> {
      const row = await db.selectFrom('onboarding_registrations').selectAll().where('id', '=', id).where('expires_at', '>', toDbTime(now)).executeTakeFirst();
      return (
        row && {
          id: row.id,
          email: row.email,
          idType: row.id_type,
          idDocument: row.id_document,
          answers: JSON.parse(row.answers) as Record<string, unknown>,
          language: row.language as Registration['language'],
          expiresAt: row.expires_at,
        }
      );
    },

    async removeRegistration(id: string): Promise<void> {
      await db.deleteFrom('onboarding_registrations').where('id', '=', id).execute();
    },

    /** Sign-ups whose code was never confirmed, expired before `before` (their e-mail and ID document go with them). */
    async removeRegistrationsExpiredBefore(before: Date): Promise<number> {
      const result = await db.deleteFrom('onboarding_registrations').where('expires_at', '<=', toDbTime(before)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async find(id: string): Promise<Application | undefined> {
      const row = await db.selectFrom('onboarding_applications').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toApplication(row);
    },

    /** The newest application of this ID document or this e-mail (either one identifies an applicant). */
    async findByApplicant(idDocument: string, email: string): Promise<Application[]> {
      const rows = await db
        .selectFrom('onboarding_applications')
        .selectAll()
        .where((where) => where.or([where('id_document', '=', idDocument), where('email', '=', email)]))
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(toApplication);
    },

    /** Every application, newest first. */
    async list(): Promise<Application[]> {
      const rows = await db.selectFrom('onboarding_applications').selectAll().orderBy('created_at', 'desc').execute();
      return rows.map(toApplication);
    },

    /**
     * The applications in these statuses, and those in progress whose answers mention `inProgressMentioning` (of
     * this path and risk when named), each with when its contract was signed: the back office's queue. At most
     * `limit`, the least recently changed first.
     */
    async listForQueue(
      filter: { statuses: ApplicationStatus[]; inProgressMentioning?: string; path?: 'freelance' | 'company'; risk?: string },
      limit: number,
    ): Promise<(Application & { signedAt: string | null })[]> {
      const rows = await db
        .selectFrom('onboarding_applications')
        .leftJoin('onboarding_contracts', 'onboarding_contracts.application_id', 'onboarding_applications.id')
        .selectAll('onboarding_applications')
        .select('onboarding_contracts.signed_at')
        .where((where) =>
          where.or([
            where('onboarding_applications.status', 'in', filter.statuses),
            // A coarse match the caller narrows: the answers are JSON text, the same on both databases.
            ...(filter.inProgressMentioning === undefined
              ? []
              : [where.and([where('onboarding_applications.status', '=', 'in-progress'), where('onboarding_applications.answers', 'like', `%${filter.inProgressMentioning}%`)])]),
          ]),
        )
        .$if(filter.path !== undefined, (query) => query.where('onboarding_applications.person_type', '=', filter.path!))
        .$if(filter.risk !== undefined, (query) => query.where('onboarding_applications.riskfactor', '=', filter.risk!))
        .orderBy('onboarding_applications.updated_at')
        .limit(limit)
        .execute();
      return rows.map(({ signed_at, ...row }) => ({ ...toApplication(row), signedAt: signed_at }));
    },

    /** Every application of this ID document (canonical), newest first. */
    async listByIdDocument(idDocument: string): Promise<Application[]> {
      const rows = await db.selectFrom('onboarding_applications').selectAll().where('id_document', '=', idDocument).orderBy('created_at', 'desc').execute();
      return rows.map(toApplication);
    },

    /** A new application in progress; fails if its applicant has one open already (see `createUnlessOpen`). */
    async create(input: NewApplication, now: Date): Promise<Application> {
      const created = await createUnlessOpen(input, now);
      if (!created) throw new Error('this applicant has an open application already');
      return created;
    },

    createUnlessOpen,

    /**
     * Saves new answers and steps if the application is still at `version`: one conditional update, so of two
     * saves made from the same version (two tabs, a retried request) only one applies; the other learns it.
     */
    save: (application: Application, changes: ApplicationChanges, now: Date) => saveOn(db, application, changes, now),

    /**
     * Housekeeping: up to `batch` applications not sent to the bank (in progress, or closed as not allowed) last
     * changed at `cutoff` or earlier, and those marked `expired` whose removal is not finished; oldest first.
     */
    async listExpiring(cutoff: Date, batch: number): Promise<Pick<Application, 'id' | 'status' | 'version' | 'updatedAt'>[]> {
      const rows = await db
        .selectFrom('onboarding_applications')
        .select(['id', 'status', 'version', 'updated_at'])
        .where((where) => where.or([where.and([where('status', 'in', ['in-progress', 'not-allowed']), where('updated_at', '<=', toDbTime(cutoff))]), where('status', '=', 'expired')]))
        .orderBy('updated_at')
        .limit(batch)
        .execute();
      return rows.map((row) => ({ id: row.id, status: row.status as ApplicationStatus, version: Number(row.version), updatedAt: row.updated_at }));
    },

    /** Marks the application `expired` if it is still at `version`, in one conditional update: whether it did. */
    async markExpired(id: string, version: number): Promise<boolean> {
      const marked = await db.updateTable('onboarding_applications').set({ status: 'expired', version: version + 1 }).where('id', '=', id).where('version', '=', version).executeTakeFirst();
      return Number(marked.numUpdatedRows) === 1;
    },

    /** The application if it is marked `expired`. */
    async findExpired(id: string): Promise<Application | undefined> {
      const row = await db.selectFrom('onboarding_applications').selectAll().where('id', '=', id).where('status', '=', 'expired').executeTakeFirst();
      return row && toApplication(row);
    },

    /** `save` and the audit entries that record it, in one transaction: both are kept, or neither. */
    async saveAudited(
      application: Application,
      changes: ApplicationChanges,
      audits: AuditEntry[],
      now: Date,
    ): Promise<Application | undefined> {
      return db.transaction().execute(async (trx) => {
        const saved = await saveOn(trx, application, changes, now);
        if (saved) for (const entry of audits) await auditLogRepository(trx).append(entry, now);
        return saved;
      });
    },
  };
}

export type ApplicationRepository = ReturnType<typeof applicationRepository>;
