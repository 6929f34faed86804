/**
 * A reference for the spending figures (docs/api.md, "Figures") in exact rational arithmetic:
 * numerator and denominator as BigInt, rounded half away from zero only when written. It is
 * written apart from src/ and takes figures (decimal strings, counts, day counts), never a
 * store, so it can check any engine: the pure shaping functions, or an HTTP answer through
 * `spendingBodyMismatches`.
 */

/** n / d with d > 0. */
export interface Rational {
  n: bigint;
  d: bigint;
}

const abs = (x: bigint) => (x < 0n ? -x : x);

function rational(n: bigint, d: bigint): Rational {
  if (d === 0n) throw new RangeError('zero denominator');
  return d < 0n ? { n: -n, d: -d } : { n, d };
}

/** "12.345", "-0.5", "7" as a rational. */
export function decimal(text: string): Rational {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new TypeError(`not a decimal: ${text}`);
  const [, sign, whole = '', fraction = ''] = match;
  const n = BigInt(`${whole}${fraction}`);
  return rational(sign ? -n : n, 10n ** BigInt(fraction.length));
}

export const integer = (value: number | bigint): Rational => rational(BigInt(value), 1n);
export const times = (a: Rational, b: Rational): Rational => rational(a.n * b.n, a.d * b.d);
export const minus = (a: Rational, b: Rational): Rational =>
  rational(a.n * b.d - b.n * a.d, a.d * b.d);
export const over = (a: Rational, b: Rational): Rational => rational(a.n * b.d, a.d * b.n);
export const isZero = (a: Rational) => a.n === 0n;

/**
 * Written with `places` decimals, half away from zero. A negative value keeps its sign even when
 * it rounds to zero ("-0.00"); zero itself is unsigned.
 */
export function written(value: Rational, places: number): string {
  const scale = 10n ** BigInt(places);
  const magnitude = abs(value.n) * scale;
  let units = magnitude / value.d;
  const remainder = magnitude % value.d;
  if (remainder * 2n >= value.d) units += 1n;
  const whole = units / scale;
  const fraction = (units % scale).toString().padStart(places, '0');
  const text = places ? `${whole}.${fraction}` : `${whole}`;
  return value.n < 0n ? `-${text}` : text;
}

const HUNDRED = integer(100);
/** 365.25 / 12. */
const DAYS_PER_MONTH = decimal('30.4375');

/** The figures of docs/api.md, each from its inputs as strings or integers. */
export const expected = {
  money: (value: string) => written(decimal(value), 2),
  averageDaily: (total: string, days: number) => written(over(decimal(total), integer(days)), 2),
  averageMonthly: (total: string, days: number) =>
    written(over(times(decimal(total), DAYS_PER_MONTH), integer(days)), 2),
  averageTransaction: (total: string, count: number) =>
    written(over(decimal(total), integer(count)), 2),
  /** part as a percentage of whole; 0.00 when the whole is zero. */
  percentage: (part: string, whole: string) =>
    isZero(decimal(whole))
      ? '0.00'
      : written(times(over(decimal(part), decimal(whole)), HUNDRED), 2),
  /** (current - previous) / previous x 100; null without a non-zero previous amount. */
  trend: (current: string, previous: string | null) =>
    previous === null || isZero(decimal(previous))
      ? null
      : written(
          times(over(minus(decimal(current), decimal(previous)), decimal(previous)), HUNDRED),
          2,
        ),
  /** (income - expenses) / income x 100, one decimal; null unless income is positive. */
  savingsRate: (income: string, expenses: string) =>
    decimal(income).n > 0n
      ? written(times(over(minus(decimal(income), decimal(expenses)), decimal(income)), HUNDRED), 1)
      : null,
};

// --- Checking an HTTP answer from its own exact figures -------------------------------------

const sum = (values: readonly string[]): string => {
  const total = values.reduce((acc, value) => {
    const r = decimal(value);
    return rational(acc.n * r.d + r.n * acc.d, acc.d * r.d);
  }, integer(0));
  return written(total, 2);
};

/** "YYYY-MM" of the month before. */
function previousMonth(month: string): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 2;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

function daysBetween(start: string, end: string): number {
  return (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1;
}

interface Entry {
  flow: string;
  total_amount: string;
  transaction_count: number;
  average_transaction: string;
  percentage_of_total: string;
  trend: string | null;
  start_date?: string;
  time_series?: Array<{ start_date: string; amount: string }>;
}

/**
 * Every ratio of a spending answer recomputed from the answer's exact figures (money totals are
 * sums of cents, so exact as written), for `time_period=month` and `min_total_amount=0` (every
 * entry listed, so the listed totals make the flow totals). Returns the mismatches.
 */
export function spendingBodyMismatches(
  // biome-ignore lint/suspicious/noExplicitAny: an answer of any engine, read field by field
  body: any,
  window: { start: string; end: string },
): string[] {
  const problems: string[] = [];
  const check = (what: string, actual: unknown, wanted: unknown) => {
    if (actual !== wanted) problems.push(`${what}: ${String(actual)} != ${String(wanted)}`);
  };
  const days = daysBetween(window.start, window.end);
  const { summary } = body;
  check(
    'average_daily_spending',
    summary.average_daily_spending,
    expected.averageDaily(summary.total_spending, days),
  );
  check(
    'average_monthly_spending',
    summary.average_monthly_spending,
    expected.averageMonthly(summary.total_spending, days),
  );
  if (body.total_income !== null && body.total_income !== undefined) {
    check(
      'savings_rate',
      body.savings_rate,
      expected.savingsRate(body.total_income, body.total_expenses),
    );
  }

  const firstMonth = window.start.slice(0, 7);
  const lastMonth = window.end.slice(0, 7);
  for (const list of ['by_category', 'by_merchant', 'by_time_period'] as const) {
    const entries: Entry[] | null = body.spending[list];
    if (!entries) continue;
    const flowTotal = (flow: string) =>
      sum(entries.filter((entry) => entry.flow === flow).map((entry) => entry.total_amount));
    for (const [i, entry] of entries.entries()) {
      const at = `${list}[${i}]`;
      check(
        `${at}.average_transaction`,
        entry.average_transaction,
        expected.averageTransaction(entry.total_amount, entry.transaction_count),
      );
      check(
        `${at}.percentage_of_total`,
        entry.percentage_of_total,
        expected.percentage(entry.total_amount, flowTotal(entry.flow)),
      );
      if (list === 'by_time_period') {
        const month = (entry.start_date as string).slice(0, 7);
        const previous = entries.find(
          (other) =>
            other.flow === entry.flow && other.start_date?.slice(0, 7) === previousMonth(month),
        );
        check(
          `${at}.trend`,
          entry.trend,
          month === firstMonth
            ? null
            : expected.trend(entry.total_amount, previous?.total_amount ?? '0'),
        );
      } else {
        const amountIn = (m: string) =>
          entry.time_series?.find((point) => point.start_date.slice(0, 7) === m)?.amount ?? '0';
        const hasBefore = window.start < `${lastMonth}-01`;
        check(
          `${at}.trend`,
          entry.trend,
          hasBefore
            ? expected.trend(amountIn(lastMonth), amountIn(previousMonth(lastMonth)))
            : null,
        );
      }
    }
  }

  const periods = body.by_time_period as Array<{
    start_date: string;
    total_amount: string;
    percentage_of_total: string;
    trend: string | null;
    breakdown: Array<{ amount: string; percentage: string }>;
  }> | null;
  for (const [i, period] of (periods ?? []).entries()) {
    const at = `by_time_period[${i}]`;
    check(
      `${at}.percentage_of_total`,
      period.percentage_of_total,
      expected.percentage(period.total_amount, summary.total_spending),
    );
    const month = period.start_date.slice(0, 7);
    const previous = periods?.find(
      (other) => other.start_date.slice(0, 7) === previousMonth(month),
    );
    check(
      `${at}.trend`,
      period.trend,
      month === firstMonth
        ? null
        : expected.trend(period.total_amount, previous?.total_amount ?? '0'),
    );
    for (const [j, item] of period.breakdown.entries()) {
      check(
        `${at}.breakdown[${j}].percentage`,
        item.percentage,
        expected.percentage(item.amount, period.total_amount),
      );
    }
  }
  return problems;
}
