// The pool works in epoch milliseconds; the database keeps the shared conventions of server/db/values.ts.
import * as values from '../../db/values';

export type DbTimestamp = string;
export type DbBoolean = number;

export const toDbTime = (ms: number): DbTimestamp => values.toDbTime(new Date(ms));
export const fromDbTime = (value: DbTimestamp): number => values.fromDbTime(value).getTime();
export const toDbBoolean = values.toDbBoolean;
export const fromDbBoolean = values.fromDbBoolean;
