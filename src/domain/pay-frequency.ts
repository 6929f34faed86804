import { addDays, addMonths, differenceInCalendarDays, format, parseISO } from 'date-fns';

export const PAY_FREQUENCIES = [
  'weekly',
  'biweekly',
  'semimonthly',
  'monthly',
  'irregular',
] as const;
export type PayFrequency = (typeof PAY_FREQUENCIES)[number];

/** Gap bands in days, inclusive: wide enough for pay days moved around weekends and holidays. */
const WEEKLY_GAPS = [5, 9] as const;
const TWICE_MONTHLY_GAPS = [12, 17] as const;
const MONTHLY_GAPS = [26, 35] as const;
/** Share of gaps that must lie in the cadence's band. */
const CONSISTENT_SHARE = 0.75;
/** A biweekly payroll stays this close to a fixed 14-day grid; a semimonthly one drifts off it. */
const BIWEEKLY_GRID_TOLERANCE_DAYS = 2;

/**
 * Pay frequency from distinct pay dates (ascending ISO dates). Needs at least three dates; the
 * median gap picks the band and at least 75% of the gaps must lie in it. Biweekly and
 * semimonthly share a band: biweekly when every date stays within 2 days of the 14-day grid
 * anchored on the first (the spread of `days since first - 14 x index` is at most 2).
 */
export function inferPayFrequency(payDates: readonly string[]): PayFrequency {
  if (payDates.length < 3) return 'irregular';
  const days = payDates.map((date) =>
    differenceInCalendarDays(parseISO(date), parseISO(payDates[0] as string)),
  );
  const gaps = days.slice(1).map((day, i) => day - (days[i] as number));
  const inBand = ([low, high]: readonly [number, number]) =>
    gaps.filter((gap) => gap >= low && gap <= high).length >= CONSISTENT_SHARE * gaps.length &&
    median(gaps) >= low &&
    median(gaps) <= high;
  if (inBand(WEEKLY_GAPS)) return 'weekly';
  if (inBand(MONTHLY_GAPS)) return 'monthly';
  if (!inBand(TWICE_MONTHLY_GAPS)) return 'irregular';
  const offGrid = days.map((day, i) => day - 14 * i);
  return Math.max(...offGrid) - Math.min(...offGrid) <= BIWEEKLY_GRID_TOLERANCE_DAYS
    ? 'biweekly'
    : 'semimonthly';
}

/**
 * The next pay date the cadence implies after the last one; null when irregular. Semimonthly
 * pay repeats each of its two monthly slots, so the next is a month after the second-latest.
 */
export function nextExpectedPayDate(
  payDates: readonly string[],
  frequency: PayFrequency,
): string | null {
  const last = payDates.at(-1);
  if (last === undefined) return null;
  const lastDate = parseISO(last);
  const iso = (date: Date) => format(date, 'yyyy-MM-dd');
  switch (frequency) {
    case 'weekly':
      return iso(addDays(lastDate, 7));
    case 'biweekly':
      return iso(addDays(lastDate, 14));
    case 'semimonthly':
      return iso(addMonths(parseISO(payDates.at(-2) as string), 1));
    case 'monthly':
      return iso(addMonths(lastDate, 1));
    case 'irregular':
      return null;
  }
}

/** The mean of the middle two for an even count, as everywhere in docs/api.md. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
