import type { Generated } from 'kysely';

/**
 * The database as Kysely sees it. Storage conventions, the same on SQLite and PostgreSQL:
 * - times are ISO 8601 text in UTC with milliseconds (`2026-11-22T10:00:00.000Z`): they sort as text and
 *   read the same in both databases;
 * - booleans are integers 0 and 1;
 * - JSON is text.
 * Tables of the embedded services are typed next to those services (`db.withTables<...>()`).
 */
export interface Database {
  audit_log: AuditLogTable;
  login_sessions: LoginSessionTable;
}

/** Append-only: every state change of an application or a session, never with secrets. */
export interface AuditLogTable {
  id: Generated<number>;
  occurred_at: string;
  actor: string;
  action: string;
  subject: string;
  request_id: string | null;
  details: string | null;
}

/** A customer's session after login. The cookie value is stored only as its SHA-256. */
export interface LoginSessionTable {
  id_hash: string;
  user_sub: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}
