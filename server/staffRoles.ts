// No imports: the deployment's own package reads this file too (the staff pool's groups, deploy/lib/identity.ts).

/** The roles a staff member has, as groups of the staff pool (`cognito:groups` in their tokens). */
export const STAFF_ROLES = ['reviewer', 'approver', 'administrator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
