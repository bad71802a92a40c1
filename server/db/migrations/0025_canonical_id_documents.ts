// ID document numbers were stored as typed (trimmed, upper-cased): an X NIE padded to 8 digits (X01234567L)
// and its 7-digit form (X1234567L) were two people. From now on only the canonical form is stored and
// compared (src/validation canonicalIdDocument); this rewrites what was stored before. Only X NIEs written
// "X0" + 7 digits + letter have another spelling, so only values starting with X0 are read.
import type { Kysely } from 'kysely';
import { canonicalIdDocument } from '../../../src/validation/identifiers';

const PADDED = 'X0%';
const USER_PADDED = 'user:X0%';

/** `user:<ID document>` of the audit trail, canonical. */
const canonicalUserKey = (key: string) => (key.startsWith('user:') ? `user:${canonicalIdDocument(key.slice(5))}` : key);

function canonicalAnswers(text: string): string {
  const answers = JSON.parse(text) as Record<string, unknown>;
  const person = (value: unknown) => (typeof value === 'string' ? canonicalIdDocument(value) : value);
  const next: Record<string, unknown> = { ...answers };
  if (answers.idType !== 'passport' && 'id' in answers) next.id = person(answers.id);
  if ('selfEmployedId' in answers) next.selfEmployedId = person(answers.selfEmployedId);
  if (Array.isArray(answers.owners)) {
    next.owners = answers.owners.map((owner: unknown) =>
      owner && typeof owner === 'object' ? { ...owner, identificationDocument: person((owner as Record<string, unknown>).identificationDocument) } : owner,
    );
  }
  return JSON.stringify(next);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Applications: the column, and the answers that hold ID numbers (the sign-up's, the freelancer's NIF, the
  // owners'): an owner's number can be padded when the applicant's is not.
  const applications = await db
    .selectFrom('onboarding_applications')
    .select(['id', 'id_document', 'answers'])
    .where((where) => where.or([where('id_document', 'like', PADDED), where('answers', 'like', '%"X0%')]))
    .execute();
  for (const row of applications as { id: string; id_document: string; answers: string }[]) {
    const answers = canonicalAnswers(row.answers);
    // A passport number is no NIE, however it looks.
    const idDocument = (JSON.parse(row.answers) as { idType?: unknown }).idType === 'passport' ? row.id_document : canonicalIdDocument(row.id_document);
    if (idDocument !== row.id_document || answers !== row.answers) {
      await db.updateTable('onboarding_applications').set({ id_document: idDocument, answers }).where('id', '=', row.id).execute();
    }
  }
  // Sign-ups waiting for their e-mail code (a passport number never starts with X0 and a check letter of a NIE).
  for (const row of (await db.selectFrom('onboarding_registrations').select(['id', 'id_type', 'id_document']).where('id_document', 'like', PADDED).execute()) as {
    id: string;
    id_type: string;
    id_document: string;
  }[]) {
    if (row.id_type !== 'passport') await db.updateTable('onboarding_registrations').set({ id_document: canonicalIdDocument(row.id_document) }).where('id', '=', row.id).execute();
  }
  // The audit trail is looked up by `user:<ID document>`. The log is append-only for the product; this one
  // rewrite changes only the spelling of a key, never what an entry records.
  for (const row of (await db
    .selectFrom('audit_log')
    .select(['id', 'actor', 'subject'])
    .where((where) => where.or([where('actor', 'like', USER_PADDED), where('subject', 'like', USER_PADDED)]))
    .execute()) as { id: number; actor: string; subject: string }[]) {
    await db.updateTable('audit_log').set({ actor: canonicalUserKey(row.actor), subject: canonicalUserKey(row.subject) }).where('id', '=', row.id).execute();
  }
  // Customer sessions name the user too.
  for (const row of (await db.selectFrom('login_sessions').select(['id_hash', 'username']).where('username', 'like', PADDED).execute()) as { id_hash: string; username: string }[]) {
    await db.updateTable('login_sessions').set({ username: canonicalIdDocument(row.username) }).where('id_hash', '=', row.id_hash).execute();
  }
  // The embedded identity service's users: renamed, unless the canonical name is taken already (two accounts
  // for one person, made before this rule): then both stay as they are, for support to settle (docs/login.md).
  for (const row of (await db.selectFrom('cognito_users').select(['sub', 'username']).where('username', 'like', PADDED).execute()) as { sub: string; username: string }[]) {
    const canonical = canonicalIdDocument(row.username);
    if (canonical === row.username) continue;
    const taken = await db.selectFrom('cognito_users').select('sub').where('username', '=', canonical).executeTakeFirst();
    if (!taken) await db.updateTable('cognito_users').set({ username: canonical }).where('sub', '=', row.sub).execute();
  }
  // Left alone, because they last minutes: pending sign-ins (cognito_auth_sessions), code counters and blocks,
  // message budgets. A count kept under the old spelling simply ends with its window.
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(_db: Kysely<any>): Promise<void> {
  // Nothing to undo: the canonical form is a valid spelling of the same number under the old rules too.
}
