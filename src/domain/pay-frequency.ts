/**
 * A payroll's pay frequency and next expected pay date, from its distinct pay dates. The rule is
 * docs/api.md's ("Pay frequency"), written there for another implementation to agree with.
 *
 * Real payrolls skip a date (a holiday, a leave, a job change) and move one a day or two for a
 * weekend or a bank holiday. So the cadence comes from the median gap, a skipped date's double
 * gap still fits it, and biweekly and semimonthly (both about two weeks apart) are told apart by
 * the schedule the dates fit better: a 14-day grid, or two days of the month (where a day that
 * falls on a weekend may be paid the Friday before).
 */
import { dateOf, dayNumber } from './calendar.ts';

export const PAY_FREQUENCIES = [
  'weekly',
  'biweekly',
  'semimonthly',
  'monthly',
  'irregular',
] as const;
export type PayFrequency = (typeof PAY_FREQUENCIES)[number];

/** Median-gap bands in days, inclusive. */
const WEEKLY_GAPS = [5, 9] as const;
const TWICE_MONTHLY_GAPS = [12, 17] as const;
const MONTHLY_GAPS = [26, 35] as const;
/** Share of gaps that must fit the cadence: lie in its band, or in twice it (a skipped date). */
const CONSISTENT_SHARE = 0.75;

/**
 * A payroll's schedule: every `period` days from `phase` (a day number), or the given days of
 * every calendar month (a day past the month's end meaning its last day).
 */
type Schedule = { period: number; phase: number } | { monthDays: readonly number[] };

/** The first day of the calendar month `months` after the one holding `day` (day numbers). */
function monthStart(day: number, months = 0): number {
  const date = dateOf(day);
  const index = +date.slice(0, 4) * 12 + (+date.slice(5, 7) - 1) + months;
  const year = String(Math.floor(index / 12)).padStart(4, '0');
  return dayNumber(`${year}-${String((index % 12) + 1).padStart(2, '0')}-01`);
}

/**
 * The day a scheduled day is paid on: a grid's day itself (a grid keeps its weekday); a day of
 * the month, or the Friday before when it falls on a weekend.
 */
function payDayOf(schedule: Schedule, scheduled: number): number {
  if ('period' in schedule) return scheduled;
  const weekday = (((scheduled + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 is Sunday
  return weekday === 6 ? scheduled - 1 : weekday === 0 ? scheduled - 2 : scheduled;
}

/** Days from `day` to a scheduled day, paid on it, on its pay day, or between (0). */
function distanceTo(schedule: Schedule, scheduled: number, day: number): number {
  const payDay = payDayOf(schedule, scheduled);
  return day < payDay ? payDay - day : Math.max(0, day - scheduled);
}

/** A pay date, with the calendar months around it (first day and length: before, its, after). */
interface PayDate {
  day: number;
  months: ReadonlyArray<{ first: number; length: number }>;
}

function payDateOf(day: number): PayDate {
  const months = [-1, 0, 1].map((k) => {
    const first = monthStart(day, k);
    return { first, length: monthStart(first, 1) - first };
  });
  return { day, months };
}

/**
 * The scheduled days around a pay date, ascending: on a grid the one on or before it and the
 * two after; of days of the month, those of the month before, its own and the month after.
 */
function scheduledAround(schedule: Schedule, { day, months }: PayDate): number[] {
  if ('period' in schedule) {
    const { period, phase } = schedule;
    const before = day - ((((day - phase) % period) + period) % period);
    return [before, before + period, before + 2 * period];
  }
  return months.flatMap(({ first, length }) =>
    schedule.monthDays.map((monthDay) => first + Math.min(monthDay, length) - 1),
  );
}

/** The scheduled day nearest a pay date (the earlier one on a tie). */
function nearestScheduled(schedule: Schedule, date: PayDate): number {
  return scheduledAround(schedule, date).reduce((nearest, scheduled) =>
    distanceTo(schedule, scheduled, date.day) < distanceTo(schedule, nearest, date.day)
      ? scheduled
      : nearest,
  );
}

interface Fit {
  schedule: Schedule;
  /** The sum of the pay dates' distances from the schedule. */
  total: number;
  /** The largest of them. */
  worst: number;
}

/**
 * The candidate the dates fit best: the smallest sum of distances (one date paid early moves no
 * schedule), then the smallest largest distance, then the first.
 */
function bestFit(candidates: readonly Schedule[], dates: readonly PayDate[]): Fit {
  let best: Fit | undefined;
  for (const schedule of candidates) {
    let total = 0;
    let worst = 0;
    for (const date of dates) {
      const distance = distanceTo(schedule, nearestScheduled(schedule, date), date.day);
      total += distance;
      worst = Math.max(worst, distance);
      if (best && total > best.total) break; // cannot win
    }
    if (!best || total < best.total || (total === best.total && worst < best.worst))
      best = { schedule, total, worst };
  }
  return best as Fit;
}

/** Every grid of `period` days, by its offset (0 first) from the first pay date. */
const grids = (period: number, dates: readonly PayDate[]): Schedule[] =>
  Array.from({ length: period }, (_, offset) => ({
    period,
    phase: (dates[0] as PayDate).day + offset,
  }));
/** Every day of the month, 1 first. */
const monthDays: Schedule[] = Array.from({ length: 31 }, (_, k) => ({ monthDays: [k + 1] }));
/** Every pair of days of the month, by the first day, then the second (1-2, 1-3, ..., 30-31). */
const monthDayPairs: Schedule[] = Array.from({ length: 30 }, (_, a) =>
  Array.from({ length: 30 - a }, (_, k): Schedule => ({ monthDays: [a + 1, a + k + 2] })),
).flat();

/** The candidate schedules of a frequency; none when irregular. */
function candidatesOf(frequency: PayFrequency, dates: readonly PayDate[]): Schedule[] {
  switch (frequency) {
    case 'weekly':
      return grids(7, dates);
    case 'biweekly':
      return grids(14, dates);
    case 'semimonthly':
      return monthDayPairs;
    case 'monthly':
      return monthDays;
    case 'irregular':
      return [];
  }
}

/** Pay frequency from distinct pay dates (ascending ISO dates). */
export function inferPayFrequency(payDates: readonly string[]): PayFrequency {
  if (payDates.length < 3) return 'irregular';
  const days = payDates.map(dayNumber);
  const gaps = days.slice(1).map((day, i) => day - (days[i] as number));
  const middle = median(gaps);
  const fits = ([low, high]: readonly [number, number]) =>
    middle >= low &&
    middle <= high &&
    gaps.filter((gap) => (gap >= low && gap <= high) || (gap >= 2 * low && gap <= 2 * high))
      .length >=
      CONSISTENT_SHARE * gaps.length;
  if (fits(WEEKLY_GAPS)) return 'weekly';
  if (fits(MONTHLY_GAPS)) return 'monthly';
  if (!fits(TWICE_MONTHLY_GAPS)) return 'irregular';
  const dates = days.map(payDateOf);
  return bestFit(grids(14, dates), dates).total <= bestFit(monthDayPairs, dates).total
    ? 'biweekly'
    : 'semimonthly';
}

/**
 * The next pay date of the frequency's best-fitting schedule: the pay day of the first scheduled
 * day after the one nearest the last pay date whose pay day is after the last pay date (so a
 * last date paid early or late does not move it); null when irregular.
 */
export function nextExpectedPayDate(
  payDates: readonly string[],
  frequency: PayFrequency,
): string | null {
  const dates = payDates.map((date) => payDateOf(dayNumber(date)));
  const last = dates.at(-1);
  if (!last) return null;
  const candidates = candidatesOf(frequency, dates);
  if (candidates.length === 0) return null;
  const { schedule } = bestFit(candidates, dates);
  const nearest = nearestScheduled(schedule, last);
  const next = scheduledAround(schedule, payDateOf(nearest)).find(
    (scheduled) => scheduled > nearest && payDayOf(schedule, scheduled) > last.day,
  );
  return dateOf(payDayOf(schedule, next as number));
}

/** The mean of the middle two for an even count, as everywhere in docs/api.md. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
