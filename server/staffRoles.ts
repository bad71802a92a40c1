// No imports: the deployment's own package reads this file too (the staff pool's groups and temporary passwords,
// deploy/lib/identity.ts).

/**
 * The roles a staff member has, as groups of the staff pool (`cognito:groups` in their tokens). `compliance` is the
 * bank's internal control: it records customers' ends of relationship and alone reads a customer's records five
 * years after the relationship ended (Ley 10/2010, art. 25).
 */
export const STAFF_ROLES = ['reviewer', 'approver', 'administrator', 'compliance'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * How long a staff member's temporary password (`staff add`, `staff reset`) may be used: it is handed over in person
 * to be used at once, and until its holder has chosen their own password and enrolled an app, whoever has it could.
 */
export const STAFF_TEMPORARY_PASSWORD_DAYS = 1;
