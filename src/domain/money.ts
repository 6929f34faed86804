/**
 * Exact decimal figures for the spending response (docs/api.md, "Figures"): arithmetic stays
 * exact (or at 50 significant digits for divisions), and rounding happens only when a value is
 * formatted, half away from zero.
 */
import { Decimal } from 'decimal.js';

/** Enough digits that a quotient's rounding at two places is never disturbed by truncation. */
export const Exact = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_UP });
export type Exact = InstanceType<typeof Exact>;

export const ZERO = new Exact(0);
export const HUNDRED = new Exact(100);
/** Average days per month (365.25 / 12), the factor from daily to monthly spending. */
export const DAYS_PER_MONTH = new Exact('30.4375');

/** A DuckDB DECIMAL / BIGINT read as its exact text. */
export function exact(value: unknown): Exact {
  if (typeof value === 'string' || typeof value === 'number') return new Exact(value);
  if (typeof value === 'bigint') return new Exact(value.toString());
  throw new TypeError(`not a decimal value: ${String(value)}`);
}

/**
 * Rounds half away from zero. A negative value that rounds to zero keeps its sign ("-0.00",
 * "-0.0"), as Python's Decimal quantize (the published service) writes it: savings_rate is
 * "negative when expenses exceed income" and a falling trend is a fall, however small. Only an
 * exact zero is unsigned (sums of positive amounts never make a negative zero).
 */
function fixed(value: Exact, places: number): string {
  // toFixed rounds the unrounded value, so it keeps the sign of -0.001 (a rounded -0 loses it).
  const text = value.toFixed(places, Decimal.ROUND_HALF_UP);
  return value.isZero() && text.startsWith('-') ? text.slice(1) : text;
}

/** Money: exactly two decimals. */
export const money = (value: Exact): string => fixed(value, 2);
/** Percentages and trends: two decimals. */
export const percent = (value: Exact): string => fixed(value, 2);
/** The savings rate: one decimal. */
export const rate = (value: Exact): string => fixed(value, 1);

/** `part` as a percentage of `whole` (unrounded); zero when the whole is zero. */
export function shareOf(part: Exact, whole: Exact): Exact {
  return whole.isZero() ? ZERO : part.div(whole).times(HUNDRED);
}

/** (current - previous) / previous x 100, or null when there is no non-zero previous amount. */
export function changeFrom(current: Exact, previous: Exact | null): Exact | null {
  if (previous === null || previous.isZero()) return null;
  return current.minus(previous).div(previous).times(HUNDRED);
}

/**
 * Compares names by Unicode code point (JS `<` compares UTF-16 code units, which puts
 * U+E000..U+FFFF after astral characters). At the first differing unit, surrogates are moved
 * above U+FFFF and U+E000..U+FFFF moved down, which restores code point order.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrderUnit(x) - codePointOrderUnit(y);
  }
  return a.length - b.length;
}

function codePointOrderUnit(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** Largest amount first, then name by code point: the order of every ranked list. */
export function byAmountThenName<T>(amount: (item: T) => Exact, name: (item: T) => string) {
  return (a: T, b: T): number => amount(b).cmp(amount(a)) || compareCodePoints(name(a), name(b));
}
