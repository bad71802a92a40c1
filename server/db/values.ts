/** How values are written to the database (see schema.ts): the one place that knows. */
export const toDbTime = (date: Date): string => date.toISOString();
export const fromDbTime = (value: string): Date => new Date(value);
export const toDbBoolean = (value: boolean): number => (value ? 1 : 0);
export const fromDbBoolean = (value: number | boolean): boolean => value === 1 || value === true;
