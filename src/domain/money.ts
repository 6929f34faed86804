/**
 * Exact decimal figures for the spending response (docs/api.md, "Figures"): arithmetic stays
 * exact, and rounding happens only when a value is formatted, half away from zero.
 *
 * Sums, differences and products are exact: their inputs are DuckDB DECIMALs (at most 38
 * digits) and small factors, well inside the 50 significant digits kept. Nothing divides before
 * formatting: a quotient is kept as a `Ratio` (numerator / denominator) and rounded exactly, in
 * integers, when it is written. A quotient cut to 50 digits could land just below a half and
 * round down (1200.08 / 487 x 30.4375 is exactly 75.005, written "75.01").
 */
import { Decimal } from 'decimal.js';

export const Exact = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_UP });
export type Exact = InstanceType<typeof Exact>;

/** numerator / denominator, unevaluated: formatted exactly, never cut to a precision. */
export class Ratio {
  constructor(
    readonly numerator: Exact,
    readonly denominator: Exact,
  ) {
    if (denominator.isZero()) throw new RangeError('ratio with a zero denominator');
  }
}

/** A value to format: exact, or an exact quotient. */
export type Figure = Exact | Ratio;

export const ratio = (numerator: Exact, denominator: Exact | number): Ratio =>
  new Ratio(numerator, new Exact(denominator));

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

/** 1, scaled. */
const UNIT = { units: 1n, places: 0 };

/** An exact decimal as an integer and a power of ten: value = units / 10^places. */
function scaled(value: Exact): { units: bigint; places: number } {
  // toFixed() without places writes every digit in plain notation, unrounded.
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.toFixed());
  if (!match) throw new TypeError(`not a finite decimal: ${value.toString()}`);
  const [, sign = '', whole = '', fraction = ''] = match;
  const units = BigInt(whole + fraction);
  return { units: sign ? -units : units, places: fraction.length };
}

/**
 * Rounds half away from zero, exactly: n / d x 10^places in integers. A negative value that
 * rounds to zero keeps its sign ("-0.00", "-0.0"), as Python's Decimal quantize (the published
 * service) writes it: savings_rate is "negative when expenses exceed income" and a falling trend
 * is a fall, however small. Only an exact zero is unsigned (sums of positive amounts never make
 * a negative zero).
 */
function fixed(value: Figure, places: number): string {
  const n = scaled(value instanceof Ratio ? value.numerator : value);
  const d = value instanceof Ratio ? scaled(value.denominator) : UNIT;
  // n.units / 10^n.places / (d.units / 10^d.places) x 10^places, as top / bottom.
  let top = n.units * 10n ** BigInt(d.places + places);
  let bottom = d.units * 10n ** BigInt(n.places);
  if (top === 0n) return (0).toFixed(places);
  const negative = top < 0n !== bottom < 0n;
  if (top < 0n) top = -top;
  if (bottom < 0n) bottom = -bottom;
  // floor(top / bottom + 1/2): half away from zero on the magnitude.
  const digits = ((2n * top + bottom) / (2n * bottom)).toString().padStart(places + 1, '0');
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return negative ? `-${text}` : text;
}

/** Money: exactly two decimals. */
export const money = (value: Figure): string => fixed(value, 2);
/** Percentages and trends: two decimals. */
export const percent = (value: Figure): string => fixed(value, 2);
/** The savings rate: one decimal. */
export const rate = (value: Figure): string => fixed(value, 1);

/** `part` as a percentage of `whole` (part x 100 / whole, unevaluated); zero when the whole is zero. */
export function shareOf(part: Exact, whole: Exact): Figure {
  return whole.isZero() ? ZERO : ratio(part.times(HUNDRED), whole);
}

/** (current - previous) x 100 / previous, or null when there is no non-zero previous amount. */
export function changeFrom(current: Exact, previous: Exact | null): Figure | null {
  if (previous === null || previous.isZero()) return null;
  return ratio(current.minus(previous).times(HUNDRED), previous);
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

/** Plain decimal text: a sign, digits, at most two decimals (every stored amount). */
const PLAIN_CENTS = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/**
 * A stored amount (exact decimal text) as money: two decimals. Text with at most two decimals
 * needs no rounding, so it is written from its digits (a page of the list formats dozens of
 * amounts); any other goes through the exact path.
 */
export function formatMoney(value: string | Exact): string {
  if (typeof value !== 'string') return money(value);
  const plain = PLAIN_CENTS.exec(value);
  if (!plain) return money(exact(value));
  const [, sign = '', whole = '', fraction = ''] = plain;
  const units = whole.replace(/^0+(?=\d)/, '');
  const cents = fraction.padEnd(2, '0');
  // Only an exact zero is unsigned, as fixed() writes it.
  if (units === '0' && cents === '00') return '0.00';
  return `${sign}${units}.${cents}`;
}

/** `minuend - subtrahend`, two stored amounts, as money (in cents when both are plain). */
export function formatDifference(minuend: string, subtrahend: string): string {
  return PLAIN_CENTS.test(minuend) && PLAIN_CENTS.test(subtrahend)
    ? centsText(centsOf(minuend) - centsOf(subtrahend))
    : money(exact(minuend).minus(subtrahend));
}

/** Like formatMoney, but null stays null (optional columns). */
export function formatMoneyOrNull(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : formatMoney(value);
}

/** A stored rate (percent, up to four places): at least two decimals, no trailing zeros beyond. */
export function formatRate(value: string): string {
  const rate = exact(value);
  return rate.decimalPlaces() <= 2 ? money(rate) : rate.toFixed();
}

/**
 * Money as integer cents, exact at any size: `"1234.50"` is 123450n, `"-0.5"` is -50n. Stores
 * write amounts with at most two decimals; more is a value this service never reads, refused.
 */
export function centsOf(amount: string): bigint {
  const dot = amount.indexOf('.');
  if (dot < 0) return BigInt(amount) * 100n;
  const fraction = amount.slice(dot + 1);
  if (fraction.length > 2) throw new RangeError(`more than two decimals: ${amount}`);
  const digits = `${amount.slice(0, dot) || '0'}${fraction.padEnd(2, '0')}`;
  // Up to 15 digits a double holds the number exactly, and reads it faster than BigInt does.
  if (digits.length <= 16 && PLAIN_DIGITS.test(digits)) {
    const negative = digits.charCodeAt(0) === 45; // '-'
    const value = Number(negative ? digits.slice(1) : digits);
    return BigInt(negative ? -value : value);
  }
  return BigInt(digits);
}

/** An optional minus and at most 15 digits. */
const PLAIN_DIGITS = /^-?\d{1,15}$/;

/**
 * Integer cents as money text with two decimals (`123450n` and `123450` are `"1234.50"`); a
 * number must be an exact integer (below 2^53).
 */
export function centsText(cents: bigint | number): string {
  const negative = cents < 0;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
