// What a staff member's roles (server/staffRoles.ts) allow beyond the review, decided here once: the server's routes
// and the back office's page both ask these functions, so a role given a right later is added in one place.
/**
 * Whether a member with these roles may export everything held about a person (GDPR art. 15): the one place that
 * says which roles may, so a role added later is added here.
 */
export const mayExportPersonalData = (roles: readonly string[]): boolean => roles.includes('administrator') || roles.includes('compliance');

/** Whether a member with these roles may record a request to erase a person's data (GDPR art. 17) and answer it. */
export const mayAnswerErasureRequests = (roles: readonly string[]): boolean => roles.includes('administrator') || roles.includes('compliance');
