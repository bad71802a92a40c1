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
  captcha_solutions: { signature: string; expires_at: string };
  captcha_passes: { session_id: string; expires_at: string; used_at: string | null };
  one_time_codes: OneTimeCodeTable;
  code_blocks: { purpose: string; subject: string; blocked_until: string };
  code_cooldowns: { purpose: string; subject: string; ends_at: string };
  /** The identity provider's webhook deliveries already taken (the SHA-256 of each signature), until they expire. */
  identity_webhook_deliveries: { signature_hash: string; expires_at: string };
  staff_additions: { username: string; added_at: string };
  code_failures: { purpose: string; subject: string; failures: number; window_ends_at: string };
  /** SMS and e-mails sent per bucket (recipient, person, client address, total) in the bucket's current window. */
  message_budgets: { bucket: string; sent: number; window_ends_at: string };
  /** E-mail addresses (by the budgets' HMAC) that have entered a code the bank sent them. */
  proven_email_addresses: { address: string; proven_at: string };
  outbox: OutboxTable;
  sealing_keys: { key_id: string; public_key: string; private_key_sealed: string; created_at: string; expires_at: string };
  onboarding_documents: OnboardingDocumentTable;
  onboarding_registrations: OnboardingRegistrationTable;
  onboarding_applications: OnboardingApplicationTable;
  onboarding_contracts: OnboardingContractTable;
  review_effects: ReviewEffectTable;
  /** Which application holds an ID document: the first whose identity was verified (one per document). */
  id_document_holds: { id_document: string; application_id: string; held_at: string };
  /** The password an applicant chose, sealed with a server key, until the identity is verified and the sign-in user is made. */
  pending_passwords: { application_id: string; sealed: string; created_at: string };
  staff_sessions: StaffSessionTable;
  review_templates: ReviewTemplateTable;
  /** Contracts signed before the bank asked for more information, kept whole as evidence. */
  onboarding_contracts_superseded: OnboardingContractTable & { superseded_at: string };
  /** Requests to erase a person's data and their outcome (`erased` or `refused` with its legal ground). */
  erasure_requests: { id: string; application_id: string; received_on: string; requested_by: string; outcome: string; ground: string | null; recorded_at: string };
}

/** A staff member's back-office session (the cookie's SHA-256), live until revoked, idle too long or expired. */
export interface StaffSessionTable {
  id_hash: string;
  username: string;
  sub: string;
  /** JSON array of the member's roles at sign-in. */
  roles: string;
  /** The sign-in the session was made from (its tokens' `origin_jti`, renewed ones too): one session per sign-in. */
  token_jti: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** The words a rejection or a request for more information gives the applicant, in both languages. */
export interface ReviewTemplateTable {
  id: string;
  /** `rejection` or `more-info`. */
  kind: string;
  title_es: string;
  title_en: string;
  body_es: string;
  body_en: string;
  updated_at: string;
  /** The staff member who last changed it. */
  updated_by: string;
  /** Retired templates are kept (decisions name them) but offered no more. */
  retired_at: string | null;
}

/** A sign-up waiting for its e-mail code. */
export interface OnboardingRegistrationTable {
  id: string;
  email: string;
  id_type: string;
  id_document: string;
  /** JSON: the /signUp answers (consent dates, promotional code, passport country). */
  answers: string;
  language: string;
  created_at: string;
  expires_at: string;
}

/** An applicant's application: answers as JSON (never a secret), the steps done, its status. */
export interface OnboardingApplicationTable {
  id: string;
  status: string;
  email: string;
  id_document: string;
  person_type: string | null;
  answers: string;
  /** JSON list of step ids. */
  completed_steps: string;
  riskfactor: string | null;
  language: string;
  /** Raised by every save: a save of an older version is refused, so two tabs never lose each other's work. */
  version: number;
  created_at: string;
  updated_at: string;
  /** An approved customer's last day as a customer (YYYY-MM-DD), once the bank records it; null until then. */
  relationship_ended_on: string | null;
}

export interface OneTimeCodeTable {
  /** For login codes, the SHA-256 of the token the browser holds; otherwise random. */
  id: string;
  purpose: string;
  subject: string;
  session_id: string | null;
  recipient: string;
  /** HMAC-SHA256 of the code with a server key: a copy of the table does not reveal codes. */
  code_hash: string;
  attempts: number;
  sends: number;
  created_at: string;
  expires_at: string;
  resend_available_at: string;
  consumed_at: string | null;
}

export interface OutboxTable {
  id: Generated<number>;
  channel: 'sms' | 'email';
  recipient: string;
  purpose: string;
  text: string;
  created_at: string;
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
  username: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A document an applicant uploaded to storage and the server checked (one per application and kind). */
export interface OnboardingDocumentTable {
  application_id: string;
  kind: string;
  /** The full storage key, `private/<identityId>/...`. */
  object_key: string;
  /** SQLite answers a number, PostgreSQL a string. */
  size: number | string;
  etag: string;
  checked_at: string;
  /** The evidence copy, `evidence/<applicationId>/...`, once the document is frozen (migration 0021). */
  evidence_key?: string | null;
  /** SHA-256 (hex) of the evidence copy's bytes. */
  sha256?: string | null;
  frozen_at?: string | null;
}

/** An application's signed and sealed contract (one per application). */
export interface OnboardingContractTable {
  application_id: string;
  /** SHA-256 (hex) of the stored, sealed PDF. */
  sha256: string;
  /** SHA-256 (hex) of the contract as shown and signed, the one its signature record names. */
  contract_sha256: string;
  pdf: Buffer;
  signed_at: string;
  request_id: string;
  /** The version of the contract template's text (null for contracts signed before versions were kept). */
  template_version: string | null;
}

/** An effect of a review decision outside the database, carried out after the decision and marked done. */
export interface ReviewEffectTable {
  application_id: string;
  /** `user-pool-status` (the customer's onboarding status in the identity service) or `notice-email`. */
  effect: string;
  decision: string;
  /** Effects run in this order: the e-mail saying the account is ready goes only once sign-in is open. */
  position: number;
  created_at: string;
  /** A run carrying it out holds it until then; a run that died lets it go when the time is over. */
  claimed_until: string | null;
  attempts: number;
  /** Why the last attempt failed (an error code or message of the service, never a secret). */
  last_error: string | null;
  done_at: string | null;
}
