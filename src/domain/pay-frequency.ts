/**
 * A payroll's pay frequency and next expected pay date, from its distinct pay dates. The rule is
 * docs/api.md's ("Pay frequency"): the cadences of cadence.ts (shared with recurring streams)
 * that a payroll has, read from at least three pay dates.
 */
import { type Cadence, inferCadence, nextExpectedDate } from './cadence.ts';

export const PAY_FREQUENCIES = [
  'weekly',
  'biweekly',
  'semimonthly',
  'monthly',
  'irregular',
] as const;
export type PayFrequency = (typeof PAY_FREQUENCIES)[number];

/** The cadences a payroll is paid on; anything else is irregular. */
const PAY_CADENCES = ['weekly', 'biweekly', 'semimonthly', 'monthly'] as const satisfies Cadence[];

/** Fewer pay dates than this are irregular. */
const MIN_PAY_DATES = 3;

/** Pay frequency from distinct pay dates (ascending ISO dates). */
export function inferPayFrequency(payDates: readonly string[]): PayFrequency {
  if (payDates.length < MIN_PAY_DATES) return 'irregular';
  return inferCadence(payDates, PAY_CADENCES) ?? 'irregular';
}

/** The next pay date of the frequency's best-fitting schedule; null when irregular. */
export function nextExpectedPayDate(
  payDates: readonly string[],
  frequency: PayFrequency,
): string | null {
  if (frequency === 'irregular' || payDates.length === 0) return null;
  return nextExpectedDate(payDates, frequency);
}
