/**
 * The cadence of dated events (pay dates, a subscription's charges) and the next expected date,
 * from their distinct dates: one rule for pay frequency (pay-frequency.ts) and for recurring
 * streams (recurring/), written in docs/api.md ("Cadences") for another implementation to
 * agree with.
 *
 * Real schedules skip a date (a holiday, a leave, a missed bill) and move one a day or two for a
 * weekend or a bank holiday. So the cadence comes from the median gap, a skipped date's double
 * gap still fits it, and biweekly and semimonthly (both about two weeks apart) are told apart by
 * the schedule the dates fit better: a 14-day grid, or two days of the month (where a day that
 * falls on a weekend may be paid the Friday before).
 */
import { dateOf, dayNumber } from './calendar.ts';

export const CADENCES = [
  'weekly',
  'biweekly',
  'semimonthly',
  'monthly',
  'quarterly',
  'semiannually',
  'annually',
] as const;
export type Cadence = (typeof CADENCES)[number];

/** How many times a year each cadence comes round. */
export const PERIODS_PER_YEAR: Readonly<Record<Cadence, number>> = {
  weekly: 52,
  biweekly: 26,
  semimonthly: 24,
  monthly: 12,
  quarterly: 4,
  semiannually: 2,
  annually: 1,
};

/** A band of median gaps in days, inclusive, and the cadences it stands for. */
interface Band {
  low: number;
  high: number;
  cadences: readonly Cadence[];
}

const BANDS: readonly Band[] = [
  { low: 5, high: 9, cadences: ['weekly'] },
  { low: 12, high: 17, cadences: ['biweekly', 'semimonthly'] },
  { low: 26, high: 35, cadences: ['monthly'] },
  { low: 80, high: 100, cadences: ['quarterly'] },
  { low: 165, high: 200, cadences: ['semiannually'] },
  { low: 350, high: 380, cadences: ['annually'] },
];
/** Share of gaps that must fit the cadence: lie in its band, or in twice it (a skipped date). */
const CONSISTENT_SHARE = 0.75;

/**
 * A schedule: every `period` days from `phase` (a day number), or the given days of every
 * `months`-th calendar month, those whose month index (year x 12 + month - 1) is `phase`
 * modulo `months` (a day past a month's end meaning its last day).
 */
type Schedule =
  | { period: number; phase: number }
  | { monthDays: readonly number[]; months: number; phase: number };

/** Day number of 1970-01-01 + n for the proleptic Gregorian date, as calendar.ts counts days. */
function civilDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The first day (day number) of the month with this index (year x 12 + month - 1). */
function monthStart(index: number): number {
  const year = Math.floor(index / 12);
  return civilDay(year, index - year * 12 + 1, 1);
}

const modulo = (value: number, divisor: number) => ((value % divisor) + divisor) % divisor;

/**
 * The day a scheduled day is paid on: a grid's day itself (a grid keeps its weekday); a day of
 * the month, or the Friday before when it falls on a weekend.
 */
function payDayOf(schedule: Schedule, scheduled: number): number {
  if ('period' in schedule) return scheduled;
  const weekday = modulo(scheduled + 4, 7); // 1970-01-01 was a Thursday; 0 is Sunday
  return weekday === 6 ? scheduled - 1 : weekday === 0 ? scheduled - 2 : scheduled;
}

/** Days from `day` to a scheduled day, paid on it, on its pay day, or between (0). */
function distanceTo(schedule: Schedule, scheduled: number, day: number): number {
  const payDay = payDayOf(schedule, scheduled);
  return day < payDay ? payDay - day : Math.max(0, day - scheduled);
}

/** A date as a day number and the index of its calendar month. */
interface EventDate {
  day: number;
  month: number;
  /** Its distance from each day of the month (1 to 31) every month, once asked (byMonthDay). */
  monthDayDistances?: Int32Array;
}

function eventDateOf(day: number): EventDate {
  const date = dateOf(day);
  return { day, month: +date.slice(0, 4) * 12 + (+date.slice(5, 7) - 1) };
}

const EVERY_MONTH_DAYS = Array.from({ length: 31 }, (_, k) => k + 1);

/**
 * A date's distance from each day of the month (index 1 to 31) as a monthly schedule: the
 * nearest of that day in the date's month, the one before and the one after. A schedule of
 * several days every month is as near as its nearest day, so the pairs of days are scored
 * from this table instead of from their scheduled days (465 pairs times every date).
 */
function byMonthDay(date: EventDate): Int32Array {
  if (date.monthDayDistances) return date.monthDayDistances;
  const schedule: Schedule = { monthDays: EVERY_MONTH_DAYS, months: 1, phase: 0 };
  const distances = new Int32Array(32).fill(2 ** 30);
  for (const index of [date.month - 1, date.month, date.month + 1]) {
    const first = monthStart(index);
    const length = monthStart(index + 1) - first;
    for (const monthDay of EVERY_MONTH_DAYS) {
      const scheduled = first + Math.min(monthDay, length) - 1;
      const distance = distanceTo(schedule, scheduled, date.day);
      if (distance < (distances[monthDay] as number)) distances[monthDay] = distance;
    }
  }
  date.monthDayDistances = distances;
  return distances;
}

/**
 * The scheduled days around a date, ascending: on a grid the one on or before it and the two
 * after; of days of the month, those of the schedule's month on or before the date's month, of
 * the schedule's month before that and of the one after.
 */
function scheduledAround(schedule: Schedule, { day, month }: EventDate): number[] {
  if ('period' in schedule) {
    const { period, phase } = schedule;
    const before = day - modulo(day - phase, period);
    return [before, before + period, before + 2 * period];
  }
  const { months, phase, monthDays } = schedule;
  const latest = month - modulo(month - phase, months);
  return [latest - months, latest, latest + months].flatMap((index) => {
    const first = monthStart(index);
    const length = monthStart(index + 1) - first;
    return monthDays.map((monthDay) => first + Math.min(monthDay, length) - 1);
  });
}

/** A date's distance from a schedule: from its nearest scheduled day. */
function distanceFrom(schedule: Schedule, date: EventDate): number {
  if ('monthDays' in schedule && schedule.months === 1) {
    const distances = byMonthDay(date);
    let nearest = Number.POSITIVE_INFINITY;
    for (const monthDay of schedule.monthDays)
      nearest = Math.min(nearest, distances[monthDay] as number);
    return nearest;
  }
  return distanceTo(schedule, nearestScheduled(schedule, date), date.day);
}

/** The scheduled day nearest a date (the earlier one on a tie). */
function nearestScheduled(schedule: Schedule, date: EventDate): number {
  return scheduledAround(schedule, date).reduce((nearest, scheduled) =>
    distanceTo(schedule, scheduled, date.day) < distanceTo(schedule, nearest, date.day)
      ? scheduled
      : nearest,
  );
}

interface Fit {
  schedule: Schedule;
  /** The sum of the dates' distances from the schedule. */
  total: number;
  /** The largest of them. */
  worst: number;
}

/**
 * The candidate the dates fit best: the smallest sum of distances (one date paid early moves no
 * schedule), then the smallest largest distance, then the first.
 */
function bestFit(candidates: readonly Schedule[], dates: readonly EventDate[]): Fit {
  let best: Fit | undefined;
  for (const schedule of candidates) {
    let total = 0;
    let worst = 0;
    for (const date of dates) {
      const distance = distanceFrom(schedule, date);
      total += distance;
      worst = Math.max(worst, distance);
      if (best && total > best.total) break; // cannot win
    }
    if (!best || total < best.total || (total === best.total && worst < best.worst))
      best = { schedule, total, worst };
  }
  return best as Fit;
}

/** Every grid of `period` days, by its offset (0 first) from the first date. */
const grids = (period: number, dates: readonly EventDate[]): Schedule[] =>
  Array.from({ length: period }, (_, offset) => ({
    period,
    phase: (dates[0] as EventDate).day + offset,
  }));

/**
 * Every day of every `months`-th month, by the months' offset from the first date's month (0
 * first), then the day (1 first); monthly has one offset.
 */
const everyMonths = (months: number, dates: readonly EventDate[]): Schedule[] =>
  Array.from({ length: months }, (_, offset) =>
    Array.from(
      { length: 31 },
      (_, k): Schedule => ({
        monthDays: [k + 1],
        months,
        phase: modulo((dates[0] as EventDate).month + offset, months),
      }),
    ),
  ).flat();

/** Every pair of days of the month, by the first day, then the second (1-2, 1-3, ..., 30-31). */
const monthDayPairs: Schedule[] = Array.from({ length: 30 }, (_, a) =>
  Array.from(
    { length: 30 - a },
    (_, k): Schedule => ({ monthDays: [a + 1, a + k + 2], months: 1, phase: 0 }),
  ),
).flat();

/** The candidate schedules of a cadence. */
function candidatesOf(cadence: Cadence, dates: readonly EventDate[]): Schedule[] {
  switch (cadence) {
    case 'weekly':
      return grids(7, dates);
    case 'biweekly':
      return grids(14, dates);
    case 'semimonthly':
      return monthDayPairs;
    case 'monthly':
      return everyMonths(1, dates);
    case 'quarterly':
      return everyMonths(3, dates);
    case 'semiannually':
      return everyMonths(6, dates);
    case 'annually':
      return everyMonths(12, dates);
  }
}

/**
 * The cadence of distinct dates (ascending ISO dates) among `among`, or null when they fit none
 * of them (or there are fewer than two). A caller that needs more dates checks their number.
 */
export function inferCadence<C extends Cadence>(
  dates: readonly string[],
  among: readonly C[],
): C | null {
  if (dates.length < 2) return null;
  const days = dates.map(dayNumber);
  const gaps = days.slice(1).map((day, i) => day - (days[i] as number));
  const middle = median(gaps);
  const band = BANDS.find(({ low, high }) => middle >= low && middle <= high);
  const cadences = among.filter((cadence) => band?.cadences.includes(cadence));
  if (!band || cadences.length === 0) return null;
  const { low, high } = band;
  const fitting = gaps.filter(
    (gap) => (gap >= low && gap <= high) || (gap >= 2 * low && gap <= 2 * high),
  ).length;
  if (fitting < CONSISTENT_SHARE * gaps.length) return null;
  if (cadences.length === 1) return cadences[0] as C;
  // Twice a month: the 14-day grid against two days of the month.
  const eventDates = days.map(eventDateOf);
  const biweekly =
    bestFit(grids(14, eventDates), eventDates).total <= bestFit(monthDayPairs, eventDates).total;
  return (biweekly ? 'biweekly' : 'semimonthly') as C;
}

/**
 * The next date of the cadence's best-fitting schedule: the pay day of the first scheduled day
 * after the one nearest the last date whose pay day is after the last date (so a last date paid
 * early or late does not move it). `dates`: distinct, ascending ISO dates, at least one.
 */
export function nextExpectedDate(dates: readonly string[], cadence: Cadence): string {
  const eventDates = dates.map((date) => eventDateOf(dayNumber(date)));
  const last = eventDates.at(-1) as EventDate;
  const { schedule } = bestFit(candidatesOf(cadence, eventDates), eventDates);
  const nearest = nearestScheduled(schedule, last);
  const next = scheduledAround(schedule, eventDateOf(nearest)).find(
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
