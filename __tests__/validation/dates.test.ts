import {
  addYears,
  ageInYears,
  isAdult,
  isNotFuture,
  isNotOlderThan,
  isValidDate,
  parseCalendarDay,
  parseDate,
} from '../../src/validation';

// "Today" for these tests: 15 June 2024, mid-morning local time.
const NOW = new Date(2024, 5, 15, 10, 30);

describe('parseDate', () => {
  it('parses dd/mm/yyyy as a local date', () => {
    const date = parseDate('05/03/1990');
    expect(date).not.toBeNull();
    expect([date?.getFullYear(), date?.getMonth(), date?.getDate(), date?.getHours()]).toEqual([1990, 2, 5, 0]);
  });

  it('trims the text', () => {
    expect(parseCalendarDay(' 01/02/2024 ')).toEqual({ year: 2024, month: 2, day: 1 });
  });

  it('knows the leap years', () => {
    expect(parseDate('29/02/2024')).not.toBeNull();
    expect(parseDate('29/02/2000')).not.toBeNull(); // divisible by 400
    expect(parseDate('29/02/2023')).toBeNull();
    expect(parseDate('29/02/1900')).toBeNull(); // divisible by 100, not by 400
  });

  it.each([
    '31/02/2000',
    '31/04/2024',
    '32/01/2024',
    '00/01/2024',
    '01/00/2024',
    '01/13/2024',
    '1/2/2024',
    '01/02/24',
    '2024-02-01',
    '01-02-2024',
    '01/02/0000',
    '',
  ])('rejects %p', (text) => {
    expect(parseDate(text)).toBeNull();
    expect(isValidDate(text)).toBe(false);
  });

  it('rejects values that are not text', () => {
    expect(parseDate(20240201)).toBeNull();
    expect(parseDate(null)).toBeNull();
  });

  it('lets the date rules take a valid Date as well', () => {
    expect(isValidDate(new Date(2024, 0, 1))).toBe(true);
    expect(isValidDate(new Date(Number.NaN))).toBe(false);
  });
});

describe('addYears', () => {
  it('moves 29 February to 28 February in a common year', () => {
    expect(addYears({ year: 2008, month: 2, day: 29 }, 18)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(addYears({ year: 2008, month: 2, day: 29 }, 16)).toEqual({ year: 2024, month: 2, day: 29 });
  });
});

describe('isNotFuture', () => {
  it('accepts today and earlier, whatever the time of day', () => {
    expect(isNotFuture('15/06/2024', NOW)).toBe(true);
    expect(isNotFuture('15/06/2024', new Date(2024, 5, 15, 0, 0, 0))).toBe(true);
    expect(isNotFuture('14/06/2024', NOW)).toBe(true);
    expect(isNotFuture('01/01/1900', NOW)).toBe(true);
  });

  it('rejects tomorrow and invalid dates', () => {
    expect(isNotFuture('16/06/2024', NOW)).toBe(false);
    expect(isNotFuture('15/06/2024', new Date(2024, 5, 14, 23, 59, 59))).toBe(false);
    expect(isNotFuture('31/06/2024', NOW)).toBe(false);
  });
});

describe('isAdult', () => {
  it('is true from the 18th birthday itself', () => {
    expect(isAdult('15/06/2006', NOW)).toBe(true); // 18th birthday today
    expect(isAdult('14/06/2006', NOW)).toBe(true);
    expect(isAdult('16/06/2006', NOW)).toBe(false); // 18th birthday tomorrow
    expect(ageInYears('15/06/2006', NOW)).toBe(18);
    expect(ageInYears('16/06/2006', NOW)).toBe(17);
  });

  it('counts 28 February as the birthday of someone born on 29 February in a common year', () => {
    expect(isAdult('29/02/2008', new Date(2026, 1, 28))).toBe(true);
    expect(isAdult('29/02/2008', new Date(2026, 1, 27))).toBe(false);
    // and 29 February itself in a leap year
    expect(isAdult('29/02/2004', new Date(2022, 1, 28))).toBe(true);
    expect(isAdult('01/03/2006', new Date(2024, 1, 29))).toBe(false);
    expect(isAdult('28/02/2006', new Date(2024, 1, 28))).toBe(true);
  });

  it('is false for future or invalid dates', () => {
    expect(isAdult('16/06/2024', NOW)).toBe(false);
    expect(isAdult('not a date', NOW)).toBe(false);
  });

  it('uses the current date by default', () => {
    expect(isAdult('01/01/1990')).toBe(true);
    expect(isAdult(new Date())).toBe(false);
  });
});

describe('isNotOlderThan (at most 120 completed years)', () => {
  it('accepts up to the day before the 121st birthday', () => {
    expect(isNotOlderThan('15/06/1904', NOW)).toBe(true); // 120 today
    expect(isNotOlderThan('16/06/1903', NOW)).toBe(true); // 120, 121 tomorrow: earliest acceptable
    expect(ageInYears('16/06/1903', NOW)).toBe(120);
  });

  it('rejects from the 121st birthday on', () => {
    expect(isNotOlderThan('15/06/1903', NOW)).toBe(false);
    expect(ageInYears('15/06/1903', NOW)).toBe(121);
    expect(isNotOlderThan('01/01/1800', NOW)).toBe(false);
  });

  it('takes another maximum', () => {
    expect(isNotOlderThan('15/06/1974', NOW, 50)).toBe(true); // 50
    expect(isNotOlderThan('15/06/1973', NOW, 50)).toBe(false); // 51
  });

  it('is false for invalid dates', () => {
    expect(isNotOlderThan('30/02/2000', NOW)).toBe(false);
  });
});
