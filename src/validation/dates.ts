// Dates typed as dd/mm/yyyy and the age rules built on them.
//
// Dates are compared as calendar days in the local time zone of whoever validates (the browser, or the
// server's TZ): the time of day of `now` never matters. Every predicate takes the text typed by the user
// (trimmed) or a valid Date; anything else, or an impossible date, makes it return false.
//
// Ages follow the Spanish Civil Code (arts. 5 and 315): a person is N years old from the first moment of their
// N-th birthday, and someone born on 29 February has their birthday on 28 February in common years.

import { ADULT_AGE, MAX_AGE } from './constants';

/** A day of the calendar; `month` runs from 1 to 12. */
interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const DATE_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * Strict dd/mm/yyyy: two-digit day and month, four-digit year (0001 to 9999) and a day that exists in that
 * month (`29/02/2024` is valid, `29/02/2023` and `31/04/2024` are not).
 */
export function parseCalendarDay(value: unknown): CalendarDay | null {
  if (typeof value !== 'string') return null;
  const match = DATE_PATTERN.exec(value.trim());
  if (match === null) return null;
  const day = Number(match[1]);
  const month = Number(match[2]);
  const year = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** {@link parseCalendarDay}, as a Date at local midnight; `null` when the text is not a real dd/mm/yyyy date. */
export function parseDate(value: unknown): Date | null {
  const day = parseCalendarDay(value);
  if (day === null) return null;
  const date = new Date(2000, 0, 1);
  date.setFullYear(day.year, day.month - 1, day.day);
  return date;
}

/** The calendar day of a dd/mm/yyyy text or of a valid Date (its local day). */
export function toCalendarDay(value: unknown): CalendarDay | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return { year: value.getFullYear(), month: value.getMonth() + 1, day: value.getDate() };
  }
  return parseCalendarDay(value);
}

function compareDays(a: CalendarDay, b: CalendarDay): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The same day `years` later; a 29 February falls back to 28 February in a common year. */
export function addYears(date: CalendarDay, years: number): CalendarDay {
  const year = date.year + years;
  return { year, month: date.month, day: Math.min(date.day, daysInMonth(year, date.month)) };
}

function today(now: Date): CalendarDay {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** A real dd/mm/yyyy date (see {@link parseCalendarDay}). */
export function isValidDate(value: unknown): boolean {
  return toCalendarDay(value) !== null;
}

/** Today or earlier. */
export function isNotFuture(value: unknown, now: Date = new Date()): boolean {
  const date = toCalendarDay(value);
  return date !== null && compareDays(date, today(now)) <= 0;
}

/** Completed years between a birth date and today, or `null` when the date is not valid. */
export function ageInYears(value: unknown, now: Date = new Date()): number | null {
  const birth = toCalendarDay(value);
  if (birth === null) return null;
  const current = today(now);
  const years = current.year - birth.year;
  return compareDays(addYears(birth, years), current) <= 0 ? years : years - 1;
}

/** Born at least `age` years ago: true from the `age`-th birthday itself. */
export function isAdult(value: unknown, now: Date = new Date(), age: number = ADULT_AGE): boolean {
  const birth = toCalendarDay(value);
  return birth !== null && compareDays(addYears(birth, age), today(now)) <= 0;
}

/**
 * Not older than `maxAge` completed years: false from the (`maxAge` + 1)-th birthday. With the default of
 * 120 and today 15/06/2024, 16/06/1903 is the earliest acceptable birth date (120 years old until the next
 * day) and 15/06/1903 is rejected (121 years old today).
 */
export function isNotOlderThan(value: unknown, now: Date = new Date(), maxAge: number = MAX_AGE): boolean {
  const birth = toCalendarDay(value);
  return birth !== null && compareDays(addYears(birth, maxAge + 1), today(now)) > 0;
}
