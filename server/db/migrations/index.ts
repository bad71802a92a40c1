import type { Migration } from 'kysely';
import * as foundation from './0001_foundation';
import * as identity from './0002_identity';
import * as storage from './0003_storage';
import * as login from './0004_login';
import * as storageSegments from './0005_storage_segments';
import * as documents from './0006_documents';
import * as codeFailures from './0007_code_failures';
import * as onboardingApplications from './0008_onboarding_applications';
import * as onboardingContracts from './0010_onboarding_contracts';
import * as signingKeySuccession from './0011_signing_key_succession';
import * as answeredAuthSessions from './0012_answered_auth_sessions';
import * as openCodesIndex from './0013_open_codes_index';
import * as messageBudgets from './0017_message_budgets';
import * as contractTemplateVersion from './0020_contract_template_version';
import * as documentEvidence from './0021_document_evidence';
import * as idDocumentHolds from './0023_id_document_holds';
import * as storageReservations from './0024_storage_reservations';
import * as canonicalIdDocuments from './0025_canonical_id_documents';
import * as reviewEffects from './0027_review_effects';
import * as staffPool from './0028_staff_pool';
import * as auditLogActions from './0029_audit_log_actions';
import * as backOffice from './0030_back_office';
import * as codeCooldowns from './0031_code_cooldowns';
import * as oneOpenApplication from './0032_one_open_application';
import * as temporaryPasswords from './0033_temporary_passwords';
import * as webhookDeliveries from './0034_webhook_deliveries';
import * as objectLock from './0035_object_lock';
import * as relationshipEnd from './0036_relationship_end';
import * as erasureRequests from './0038_erasure_requests';
import * as provenEmailAddresses from './0039_proven_email_addresses';
import * as clientSignInFailures from './0040_client_sign_in_failures';
import * as staffAdditions from './0041_staff_additions';

/** Every migration, in the order they run. A new one is a new file and one line here, at the end. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_identity': identity,
  '0003_storage': storage,
  '0004_login': login,
  '0005_storage_segments': storageSegments,
  '0006_documents': documents,
  '0007_code_failures': codeFailures,
  '0008_onboarding_applications': onboardingApplications,
  '0010_onboarding_contracts': onboardingContracts,
  '0011_signing_key_succession': signingKeySuccession,
  '0012_answered_auth_sessions': answeredAuthSessions,
  '0013_open_codes_index': openCodesIndex,
  '0017_message_budgets': messageBudgets,
  '0020_contract_template_version': contractTemplateVersion,
  '0021_document_evidence': documentEvidence,
  '0023_id_document_holds': idDocumentHolds,
  '0024_storage_reservations': storageReservations,
  '0025_canonical_id_documents': canonicalIdDocuments,
  '0027_review_effects': reviewEffects,
  '0028_staff_pool': staffPool,
  '0029_audit_log_actions': auditLogActions,
  '0030_back_office': backOffice,
  '0031_code_cooldowns': codeCooldowns,
  '0032_one_open_application': oneOpenApplication,
  '0033_temporary_passwords': temporaryPasswords,
  '0034_webhook_deliveries': webhookDeliveries,
  '0035_object_lock': objectLock,
  '0036_relationship_end': relationshipEnd,
  '0038_erasure_requests': erasureRequests,
  '0039_proven_email_addresses': provenEmailAddresses,
  '0040_client_sign_in_failures': clientSignInFailures,
  '0041_staff_additions': staffAdditions,
};
