/**
 * The analysis window and its calendar periods (docs/api.md, "Clock and window"). Dates are
 * handled as `YYYY-MM-DD` text and UTC day numbers, so no local time zone can shift them.
 */

export const TIME_PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type TimePeriod = (typeof TIME_PERIODS)[number];

export interface Window {
  start: string;
  end: string;
}

export interface Period {
  /** The calendar period's first day, unclipped: the key the SQL groups by. */
  key: string;
  /** The period clipped to the window. */
  start: string;
  end: string;
}

/**
 * Days since 1970-01-01 of a `YYYY-MM-DD` date, in the proleptic Gregorian calendar (years 0-99
 * too: pydantic accepts start_date=0001-01-01, where Date.UTC would read 1901). A day or month
 * past its end runs on into the next, as Date's setters do. Integer arithmetic only (Howard
 * Hinnant's days_from_civil): no Date object per date, on the hot paths that read thousands.
 */
export function dayNumber(date: string): number {
  const month = +date.slice(5, 7);
  // Years that start in March: February's leap day is the year's last.
  const year = +date.slice(0, 4) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + +date.slice(8, 10) - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The `YYYY-MM-DD` date of a day number (civil_from_days: the inverse of dayNumber). */
export function dateOf(day: number): string {
  const shifted = day + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(dayOfMonth).padStart(2, '0')}`;
}

/** Is this text a real calendar date written `YYYY-MM-DD`? */
export const isCalendarDate = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && dateOf(dayNumber(text)) === text;

export const addDays = (date: string, days: number): string => dateOf(dayNumber(date) + days);

/** The same calendar date one year earlier; Feb 29 becomes Feb 28. */
export function oneYearBefore(date: string): string {
  const year = String(+date.slice(0, 4) - 1).padStart(4, '0');
  const monthDay = date.slice(5) === '02-29' ? '02-28' : date.slice(5);
  return `${year}-${monthDay}`;
}

/**
 * The effective window: `end_date` omitted or later than today becomes today; `start_date`
 * omitted becomes the day after the same date a year before the end (a trailing year, both
 * ends inclusive). The caller rejects a start after the end.
 */
const FIRST_DATE = '0001-01-01';

export function effectiveWindow(
  today: string,
  startDate: string | undefined,
  endDate: string | undefined,
): Window {
  const end = endDate === undefined || endDate > today ? today : endDate;
  const trailingYearStart = addDays(oneYearBefore(end), 1);
  // Dates start at 0001-01-01 (Python's date.min): a trailing year never reaches year 0.
  const start = startDate ?? (trailingYearStart < FIRST_DATE ? FIRST_DATE : trailingYearStart);
  return { start, end };
}

/**
 * The window's whole calendar months, as the first day of the first and the last day of the
 * last; null when it holds none.
 */
export function wholeMonths(window: Window): Window | null {
  const startsMonth = window.start.endsWith('-01');
  const start = startsMonth ? window.start : addDays(`${window.start.slice(0, 8)}01`, 32);
  const first = `${start.slice(0, 8)}01`;
  const afterEnd = addDays(window.end, 1);
  // The last whole month ends the day before the first of the month after `end`'s, or before
  // the first of `end`'s own month when `end` is not its last day.
  const end = afterEnd.endsWith('-01') ? window.end : addDays(`${window.end.slice(0, 8)}01`, -1);
  return first <= end ? { start: first, end } : null;
}

/** Periods made of whole calendar months. */
const MONTH_ALIGNED: ReadonlySet<TimePeriod> = new Set(['month', 'quarter', 'year']);

/**
 * What a monthly rollup can answer of a window grouped by `period`: its whole months, when the
 * periods are made of whole months (a month then lies in one period); null otherwise.
 */
export const wholeMonthsFor = (window: Window, period: TimePeriod): Window | null =>
  MONTH_ALIGNED.has(period) ? wholeMonths(window) : null;

export const daysIn = (window: Window): number =>
  dayNumber(window.end) - dayNumber(window.start) + 1;

/** The first day of the calendar period holding `date` (ISO weeks start on Monday). */
export function periodKey(date: string, period: TimePeriod): string {
  switch (period) {
    case 'day':
      return date;
    case 'week': {
      const day = dayNumber(date);
      // Day 0 (1970-01-01) was a Thursday: Monday-based weekday = (day + 3) mod 7.
      return dateOf(day - ((((day + 3) % 7) + 7) % 7));
    }
    case 'month':
      return `${date.slice(0, 7)}-01`;
    case 'quarter': {
      const month = +date.slice(5, 7);
      const first = month - ((month - 1) % 3);
      return `${date.slice(0, 4)}-${String(first).padStart(2, '0')}-01`;
    }
    case 'year':
      return `${date.slice(0, 4)}-01-01`;
  }
}

/** The first day of the calendar period after the one starting at `key`. */
function nextKey(key: string, period: TimePeriod): string {
  switch (period) {
    case 'day':
      return addDays(key, 1);
    case 'week':
      return addDays(key, 7);
    case 'month':
    case 'quarter': {
      const months = +key.slice(0, 4) * 12 + (+key.slice(5, 7) - 1) + (period === 'month' ? 1 : 3);
      const year = String(Math.floor(months / 12)).padStart(4, '0');
      return `${year}-${String((months % 12) + 1).padStart(2, '0')}-01`;
    }
    case 'year':
      return `${String(+key.slice(0, 4) + 1).padStart(4, '0')}-01-01`;
  }
}

// ISO dates compare as text; Math.min/max would turn them into NaN.
const laterOf = (a: string, b: string) => (a < b ? b : a);
const earlierOf = (a: string, b: string) => (a < b ? a : b);

/** The period starting at `key`, clipped to the window. */
export function clippedPeriod(key: string, period: TimePeriod, window: Window): Period {
  const last = addDays(nextKey(key, period), -1);
  return {
    key,
    start: laterOf(key, window.start),
    end: earlierOf(last, window.end),
  };
}

/** The calendar period just before the one starting at `key` (its key). */
export function previousKey(key: string, period: TimePeriod): string {
  return periodKey(addDays(key, -1), period);
}

/** The window's last calendar period (holding the end) and the one before, if inside the window. */
export function lastTwoPeriods(
  window: Window,
  period: TimePeriod,
): { last: string; beforeLast: string | null } {
  const last = periodKey(window.end, period);
  return { last, beforeLast: last > window.start ? previousKey(last, period) : null };
}
