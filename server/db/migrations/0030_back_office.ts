// The bank's back office (docs/back-office.md): staff sessions, the templates reviewers choose a rejection's or a
// request for more information's words from, and the contracts an applicant signed before the bank asked for more.
import type { Kysely } from 'kysely';
import { binaryType } from '../dialect';

/** The templates a new bank starts with; its administrators edit them, and retire those it does not use. */
const FIRST_TEMPLATES = [
  {
    id: 'identity-not-verified',
    kind: 'rejection',
    title_es: 'Identidad no verificada',
    title_en: 'Identity not verified',
    body_es: 'No hemos podido comprobar tu identidad con las fotos y el documento que nos enviaste.',
    body_en: 'We could not verify your identity with the photos and the document you sent us.',
  },
  {
    id: 'activity-not-served',
    kind: 'rejection',
    title_es: 'Actividad que no atendemos',
    title_en: 'Activity we do not serve',
    body_es: 'Por ahora Divilo no ofrece cuentas para la actividad de tu negocio.',
    body_en: 'For now Divilo does not offer accounts for the activity of your business.',
  },
  {
    id: 'risk-policy',
    kind: 'rejection',
    title_es: 'Política de riesgos',
    title_en: 'Risk policy',
    body_es: 'Tu solicitud no cumple nuestra política de admisión de clientes.',
    body_en: 'Your application does not meet our customer acceptance policy.',
  },
  {
    id: 'document-unreadable',
    kind: 'more-info',
    title_es: 'Documento ilegible',
    title_en: 'Unreadable document',
    body_es: 'Uno de los documentos que nos enviaste no se lee bien. Súbelo de nuevo, con buena luz y entero.',
    body_en: 'One of the documents you sent us cannot be read well. Upload it again, whole and in good light.',
  },
  {
    id: 'answers-to-check',
    kind: 'more-info',
    title_es: 'Datos por revisar',
    title_en: 'Answers to check',
    body_es: 'Necesitamos que revises algunos de los datos que nos diste.',
    body_en: 'We need you to check some of the answers you gave us.',
  },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // A staff member's session in the back office, made from a fresh sign-in of the staff pool (its ID token used
  // once: `token_jti` is unique). Roles are read at sign-in; changing them ends the member's sessions.
  await db.schema
    .createTable('staff_sessions')
    .addColumn('id_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('username', 'varchar(128)', (col) => col.notNull())
    .addColumn('sub', 'varchar(64)', (col) => col.notNull())
    .addColumn('roles', 'varchar(200)', (col) => col.notNull())
    .addColumn('token_jti', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('staff_sessions_username').on('staff_sessions').column('username').execute();
  await db.schema
    .createTable('review_templates')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('title_es', 'varchar(120)', (col) => col.notNull())
    .addColumn('title_en', 'varchar(120)', (col) => col.notNull())
    .addColumn('body_es', 'varchar(2000)', (col) => col.notNull())
    .addColumn('body_en', 'varchar(2000)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_by', 'varchar(160)', (col) => col.notNull())
    .addColumn('retired_at', 'varchar(32)')
    .execute();
  // A contract stays the bank's evidence when the applicant must sign again (the bank asked for more information):
  // it moves here, whole, in the same transaction as the request.
  await db.schema
    .createTable('onboarding_contracts_superseded')
    .addColumn('application_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('contract_sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('pdf', binaryType(db), (col) => col.notNull())
    .addColumn('signed_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('request_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('template_version', 'varchar(64)')
    .addColumn('superseded_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('onboarding_contracts_superseded_pk', ['application_id', 'signed_at'])
    .execute();
  await db
    .insertInto('review_templates')
    .values(FIRST_TEMPLATES.map((template) => ({ ...template, updated_at: '2026-11-29T00:00:00.000Z', updated_by: 'divilo', retired_at: null })))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('onboarding_contracts_superseded').execute();
  await db.schema.dropTable('review_templates').execute();
  await db.schema.dropTable('staff_sessions').execute();
}
