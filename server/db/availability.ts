// PostgreSQL going away (a failover, a restart, a crash) as the rest of the server sees it: one error class for
// "the database cannot be reached or dropped the connection", which the API answers with 503 and Retry-After,
// and a pool whose connections can fail at any moment without ending the process.
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { Pool, PoolClient } from 'pg';

/** The database could not be reached, or dropped the connection a query was using: an outage, not a bug. */
export class DatabaseUnavailable extends Error {
  readonly code = 'DATABASE_UNAVAILABLE';

  constructor(cause: unknown) {
    super('The database cannot be reached', { cause });
    this.name = 'DatabaseUnavailable';
  }
}

/**
 * SQLSTATEs of a connection that is lost or refused: class 08 (connection exception), 57P01 (terminated by an
 * administrator, or "terminating connection due to unexpected postmaster exit"), 57P02 (crash of another server
 * process), 57P03 (starting up, shutting down, in recovery), 53300 (too many connections).
 */
const LOST_CONNECTION_STATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
const SOCKET_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What node-postgres itself says of a connection that ended or could not be made in time. */
const DRIVER_MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/, /is not queryable$/];

/** Whether a query failed because its connection is gone (not because of the query itself). */
export function isLostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (LOST_CONNECTION_STATE.test(code) || SOCKET_FAILURES.has(code))) return true;
  return DRIVER_MESSAGES.some((message) => message.test(error.message));
}

function unavailabilityOf(error: unknown): DatabaseUnavailable | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof DatabaseUnavailable) return current;
  }
  return undefined;
}

/** The error itself or one of its causes is a DatabaseUnavailable. */
export const isDatabaseUnavailable = (error: unknown): boolean => unavailabilityOf(error) !== undefined;

/** What the driver said of the lost connection (`connect ECONNREFUSED …`, `Connection terminated …`), for the log. */
export const unavailabilityReason = (error: unknown): string | undefined => (unavailabilityOf(error)?.cause as Error | undefined)?.message;

/**
 * The pool as Kysely uses it, telling lost connections apart: a connection that cannot be made, or a query whose
 * connection went away, fails with DatabaseUnavailable; a query's own errors (a unique violation, a
 * serialization failure) stay as PostgreSQL gave them.
 */
export function guardedPool(pool: Pool): PostgresPool {
  const guarded = new WeakMap<PoolClient, PostgresPoolClient>();
  const guard = (client: PoolClient): PostgresPoolClient => ({
    query: ((text: string, parameters: readonly unknown[]) =>
      client.query(text, parameters as unknown[]).catch((error: unknown) => {
        throw isLostConnection(error) ? new DatabaseUnavailable(error) : error;
      })) as unknown as PostgresPoolClient['query'],
    // pg-pool gives a checked-out client a new release function each time.
    release: () => client.release(),
  });
  return {
    async connect() {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw new DatabaseUnavailable(error);
      }
      let wrapper = guarded.get(client);
      if (!wrapper) {
        wrapper = guard(client);
        guarded.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
