/**
 * `is_recurring` (docs/api.md, "Figures"): a cadence in the distinct dates and a steady amount.
 * Inputs are the entry's counted transactions in the window.
 */
import { dayNumber } from '../calendar.ts';

/** Cadence bands in days between neighbouring distinct dates, both ends inclusive. */
const CADENCE_BANDS = [
  { name: 'weekly', min: 6, max: 8 },
  { name: 'biweekly', min: 13, max: 16 },
  { name: 'monthly', min: 27, max: 33 },
  { name: 'quarterly', min: 85, max: 97 },
  { name: 'yearly', min: 355, max: 375 },
] as const;

const MIN_DISTINCT_DATES = 3;

/** Twice the median (the mean of the middle two for an even count), so it stays an integer. */
function doubledMedian(sorted: readonly bigint[]): bigint {
  const middle = sorted.length >> 1;
  const upper = sorted[middle] as bigint;
  return sorted.length % 2 === 1 ? 2n * upper : (sorted[middle - 1] as bigint) + upper;
}

const ascending = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The cadence half of is_recurring: at least three distinct dates whose median gap falls in a
 * band, with three gaps in four inside it. Amounts matter only when this holds, so an engine
 * may fetch them only for such entries.
 * @param dates distinct `YYYY-MM-DD` dates of the entry's transactions, ascending
 */
export function hasRecurringCadence(dates: readonly string[]): boolean {
  if (dates.length < MIN_DISTINCT_DATES) return false;
  const days = dates.map(dayNumber);
  const gaps = days.slice(1).map((day, i) => BigInt(day - (days[i] as number)));
  const medianGap2 = doubledMedian([...gaps].sort(ascending));
  const band = CADENCE_BANDS.find(
    ({ min, max }) => medianGap2 >= 2n * BigInt(min) && medianGap2 <= 2n * BigInt(max),
  );
  if (!band) return false;
  const inBand = gaps.filter((gap) => gap >= band.min && gap <= band.max).length;
  return 4 * inBand >= 3 * gaps.length;
}

/**
 * @param dates distinct `YYYY-MM-DD` dates of the entry's transactions, ascending
 * @param amountsInCents every transaction's amount, in integer cents (read only when the
 *   dates have a cadence)
 */
export function isRecurring(dates: readonly string[], amountsInCents: readonly bigint[]): boolean {
  if (!hasRecurringCadence(dates)) return false;
  // |amount - median| <= 25% of median, in doubled units: 4 * |2a - 2m| <= 2m.
  const medianAmount2 = doubledMedian([...amountsInCents].sort(ascending));
  const steady = amountsInCents.filter((amount) => {
    const difference = 2n * amount - medianAmount2;
    return 4n * (difference < 0n ? -difference : difference) <= medianAmount2;
  }).length;
  return 4 * steady >= 3 * amountsInCents.length;
}
