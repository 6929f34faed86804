/**
 * Every ratio of the spending answer rounds exactly (docs/api.md, "Figures"): compared with an
 * exact rational reference (test/helpers/exact-figures.ts) over many thousands of drawn totals,
 * counts and windows, including windows whose day count divides the constants (487 days:
 * 30.4375 = 487 / 16) and amounts that make exact half cents. The pure functions are checked
 * directly, and the 487-day example end to end through the app.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendingBody } from '../../src/areas/spending/body.ts';
import { changeFrom, Exact, money, percent, rate, ratio, shareOf } from '../../src/domain/money.ts';
import { cashFlowOf } from '../../src/domain/spending/cash-flow.ts';
import type { SpendingAggregates, SpendingQuery } from '../../src/domain/spending/model.ts';
import { breakdown, shapeSpendingAnalysis } from '../../src/domain/spending/shape.ts';
import { type SpendingTestApp, spendingTestApp } from '../fixtures/spending/app.ts';
import {
  decimal,
  expected,
  integer,
  over,
  spendingBodyMismatches,
  written,
} from '../helpers/exact-figures.ts';
import { spendingQuery } from '../helpers/spending-query.ts';
import {
  buildStoreFromCsv,
  type FixtureRow,
  makeTempDir,
  writeCsvFixture,
} from '../helpers/store.ts';

const TODAY = '2026-03-15';

/** Cents written as a decimal string ("-0.05", "1200.08"). */
function text(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const magnitude = cents < 0n ? -cents : cents;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}
const exactOf = (cents: bigint) => new Exact(text(cents));

/** The first day of a window of `days` days ending on `end`. */
function startFor(end: string, days: number): string {
  return new Date(Date.parse(`${end}T00:00:00Z`) - (days - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

// --- Arbitraries -----------------------------------------------------------------------------

/** Positive amounts in cents: small, large, and products of 2s and 5s (short exact quotients). */
const positiveCents = fc.oneof(
  fc.bigInt({ min: 1n, max: 10_000n }),
  fc.bigInt({ min: 1n, max: 10n ** 15n }),
  fc
    .tuple(fc.nat({ max: 24 }), fc.nat({ max: 8 }), fc.integer({ min: 1, max: 99 }))
    .map(([twos, fives, k]) => BigInt(k) * 2n ** BigInt(twos) * 5n ** BigInt(fives)),
);
/** Day counts: the constants' divisors and multiples (487, 16, 974, ...) and any window. */
const windowDays = fc.oneof(
  fc.constantFrom(1, 2, 4, 8, 16, 28, 29, 30, 31, 32, 64, 365, 366, 487, 974, 1461, 1948, 3 * 487),
  fc.integer({ min: 1, max: 4000 }),
);
/**
 * A window and a total whose monthly average sits on half cents: total = 8 x odd x days cents
 * gives total x 30.4375 / days = odd x 243.5 cents; over 487 days any 16 m + 8 cents does.
 */
const halfCentMonthly = fc.oneof(
  fc
    .tuple(windowDays, fc.nat({ max: 50_000 }))
    .map(([days, m]) => ({ days, total: 8n * BigInt(2 * m + 1) * BigInt(days) })),
  fc.nat({ max: 10_000_000 }).map((m) => ({ days: 487, total: 16n * BigInt(m) + 8n })),
);
const summaryCase = fc.oneof(
  halfCentMonthly,
  fc.record({ days: windowDays, total: fc.oneof(positiveCents, fc.constant(0n)) }),
);

// --- The formatting functions ------------------------------------------------------------------

describe('ratios are formatted exactly, half away from zero', () => {
  it('the 487-day example: 1200.08 x 30.4375 / 487 = 75.005 is written 75.01', () => {
    const total = new Exact('1200.08');
    expect(money(ratio(total.times('30.4375'), 487))).toBe('75.01');
    // What a quotient cut to 50 digits gave: just below the half.
    expect(money(total.div(487).times('30.4375'))).toBe('75.00');
  });

  it('money, percent and rate of any signed quotient match the reference', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          positiveCents,
          positiveCents.map((c) => -c),
          fc.constant(0n),
        ),
        fc.oneof(
          positiveCents,
          positiveCents.map((c) => -c),
        ),
        (numerator, denominator) => {
          const exact = ratio(exactOf(numerator), exactOf(denominator));
          const reference = over(decimal(text(numerator)), decimal(text(denominator)));
          expect(money(exact)).toBe(written(reference, 2));
          expect(percent(exact)).toBe(written(reference, 2));
          expect(rate(exact)).toBe(written(reference, 1));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('a negative value rounding to zero keeps its sign; an exact zero is unsigned', () => {
    expect(percent(ratio(new Exact('-1'), 100_000))).toBe('-0.00');
    expect(rate(ratio(new Exact('-4'), 100))).toBe('-0.0');
    expect(money(ratio(new Exact('0'), -3))).toBe('0.00');
    expect(money(ratio(new Exact('-0'), 7))).toBe('0.00');
  });

  it('shares, trends and savings rates match the reference', () => {
    fc.assert(
      fc.property(
        fc.oneof(positiveCents, fc.constant(0n)),
        fc.oneof(positiveCents, fc.constant(0n)),
        (a, b) => {
          expect(percent(shareOf(exactOf(a), exactOf(b)))).toBe(
            expected.percentage(text(a), text(b)),
          );
          const trend = changeFrom(exactOf(a), exactOf(b));
          expect(trend === null ? null : percent(trend)).toBe(expected.trend(text(a), text(b)));
          const { savingsRate } = cashFlowOf({ income: exactOf(a), expenses: exactOf(b) });
          expect(savingsRate === null ? null : rate(savingsRate)).toBe(
            expected.savingsRate(text(a), text(b)),
          );
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('breakdown percentages of the period total match the reference', () => {
    fc.assert(
      fc.property(fc.array(positiveCents, { minLength: 1, maxLength: 14 }), (amounts) => {
        const items = amounts.map((cents, i) => ({
          name: `m${String(i).padStart(2, '0')}`,
          amount: exactOf(cents),
          count: 1,
        }));
        const total = amounts.reduce((a, b) => a + b, 0n);
        for (const item of breakdown(items, exactOf(total))) {
          expect(percent(item.percentage)).toBe(
            expected.percentage(money(item.amount), text(total)),
          );
        }
      }),
      { numRuns: 3_000 },
    );
  });
});

// --- The shaping of a whole answer -----------------------------------------------------------

const LARGEST = {
  transactionId: 't1',
  amount: new Exact('1.00'),
  date: TODAY,
  description: 'X',
  merchantCategoryCode: null,
};

function queryFor(days: number, overrides: Partial<SpendingQuery> = {}): SpendingQuery {
  return spendingQuery({ window: { start: startFor(TODAY, days), end: TODAY }, ...overrides });
}

describe('the shaped answer: every ratio against the reference', () => {
  it('summary averages, entry averages, shares, trends and the savings rate', () => {
    const entryArbitrary = fc.record({
      amount: positiveCents,
      count: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constantFrom(16, 32, 487, 1024)),
      last: fc.oneof(positiveCents, fc.constant(0n)),
      beforeLast: fc.oneof(positiveCents, fc.constant(0n)),
    });
    fc.assert(
      fc.property(
        summaryCase,
        fc.array(entryArbitrary, { minLength: 1, maxLength: 4 }),
        fc.record({ income: fc.oneof(positiveCents, fc.constant(0n)), expenses: positiveCents }),
        ({ days, total }, entries, cashFlow) => {
          const query = queryFor(days);
          const names = entries.map((_, i) => `Category ${i}`);
          const aggregates: SpendingAggregates = {
            entries: entries.map((entry, i) => ({
              flow: 'spending',
              key: names[i] as string,
              amount: exactOf(entry.amount),
              count: entry.count,
              largest: LARGEST,
            })),
            breakdowns: entries.flatMap((entry, i) =>
              [
                ['2026-03-01', entry.last],
                ['2026-02-01', entry.beforeLast],
              ]
                .filter(([, cents]) => cents !== 0n)
                .map(([period, cents]) => ({
                  flow: 'spending' as const,
                  category: names[i],
                  period: period as string,
                  amount: exactOf(cents as bigint),
                  count: 1,
                })),
            ),
            summary: { total: exactOf(total), count: 1, uniqueMerchants: 1 },
            cashFlow: { income: exactOf(cashFlow.income), expenses: exactOf(cashFlow.expenses) },
          };
          const shaped = spendingBody(shapeSpendingAnalysis(query, aggregates));
          const totalText = text(total);
          expect(shaped.summary.average_daily_spending).toBe(
            expected.averageDaily(totalText, days),
          );
          expect(shaped.summary.average_monthly_spending).toBe(
            expected.averageMonthly(totalText, days),
          );
          expect(shaped.savings_rate).toBe(
            expected.savingsRate(text(cashFlow.income), text(cashFlow.expenses)),
          );
          const flowTotal = text(entries.reduce((sum, entry) => sum + entry.amount, 0n));
          const hasBeforeLast = query.window.start < '2026-03-01';
          for (const listed of shaped.spending.by_category ?? []) {
            const i = names.indexOf(listed.category);
            const entry = entries[i] as (typeof entries)[number];
            expect(listed.average_transaction).toBe(
              expected.averageTransaction(text(entry.amount), entry.count),
            );
            expect(listed.percentage_of_total).toBe(
              expected.percentage(text(entry.amount), flowTotal),
            );
            expect(listed.trend).toBe(
              hasBeforeLast ? expected.trend(text(entry.last), text(entry.beforeLast)) : null,
            );
          }
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('time periods: shares of the total, trends against the month before, breakdown shares', () => {
    const months = ['2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01'];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(positiveCents, fc.constant(0n)), { minLength: 5, maxLength: 5 }),
        fc.array(fc.oneof(positiveCents, fc.constant(0n)), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 1, max: 140 }),
        (first, second, days) => {
          const query = queryFor(days, { groupBy: 'time_period', secondaryGroupBy: 'category' });
          const inWindow = months.map((month) => `${month.slice(0, 8)}31` >= query.window.start);
          const rows = months.flatMap((period, m) =>
            inWindow[m]
              ? [
                  { period, category: 'A', cents: first[m] as bigint },
                  { period, category: 'B', cents: second[m] as bigint },
                ].filter((row) => row.cents !== 0n)
              : [],
          );
          const periodCents = new Map<string, bigint>();
          for (const row of rows) {
            periodCents.set(row.period, (periodCents.get(row.period) ?? 0n) + row.cents);
          }
          const total = [...periodCents.values()].reduce((a, b) => a + b, 0n);
          const aggregates: SpendingAggregates = {
            entries: [...periodCents].map(([period, cents]) => ({
              flow: 'spending',
              key: period,
              amount: exactOf(cents),
              count: 3,
              largest: LARGEST,
            })),
            breakdowns: rows.map((row) => ({
              flow: 'spending',
              period: row.period,
              category: row.category,
              amount: exactOf(row.cents),
              count: 1,
            })),
            summary: { total: exactOf(total), count: 3, uniqueMerchants: 1 },
            cashFlow: { income: new Exact(0), expenses: new Exact(0) },
          };
          const shaped = spendingBody(shapeSpendingAnalysis(query, aggregates));
          const firstKey = `${query.window.start.slice(0, 7)}-01`;
          const expectedTrend = (period: string) => {
            if (period === firstKey) return null;
            const previous = months[months.indexOf(period) - 1] as string;
            return expected.trend(
              text(periodCents.get(period) ?? 0n),
              text(periodCents.get(previous) ?? 0n),
            );
          };
          for (const entry of shaped.spending.by_time_period ?? []) {
            const period = `${(entry.start_date as string).slice(0, 7)}-01`;
            const cents = periodCents.get(period) as bigint;
            expect(entry.percentage_of_total).toBe(expected.percentage(text(cents), text(total)));
            expect(entry.average_transaction).toBe(expected.averageTransaction(text(cents), 3));
            expect(entry.trend).toBe(expectedTrend(period));
          }
          for (const enriched of shaped.by_time_period ?? []) {
            const period = `${(enriched.start_date as string).slice(0, 7)}-01`;
            const cents = periodCents.get(period) as bigint;
            expect(enriched.percentage_of_total).toBe(
              expected.percentage(text(cents), text(total)),
            );
            expect(enriched.trend).toBe(expectedTrend(period));
            for (const item of enriched.breakdown) {
              expect(item.percentage).toBe(expected.percentage(item.amount, text(cents)));
            }
          }
          expect(shaped.summary.average_monthly_spending).toBe(
            expected.averageMonthly(text(total), days),
          );
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('the reference itself: exact halves round away from zero', () => {
    expect(written(over(decimal('1200.08'), integer(16)), 2)).toBe('75.01');
    expect(expected.averageMonthly('1200.08', 487)).toBe('75.01');
    expect(written(decimal('-0.005'), 2)).toBe('-0.01');
    expect(written(decimal('-0.004'), 2)).toBe('-0.00');
    expect(written(decimal('0'), 2)).toBe('0.00');
  });
});

// --- End to end --------------------------------------------------------------------------------

/** Users with debits and credits over the last months; u487 spends 1200.08 in all. */
const E2E_USERS = ['u487', 'v1', 'v2', 'v3', 'v4'];
let t: SpendingTestApp;

beforeAll(async () => {
  const tables: Record<string, FixtureRow[]> = {
    users: [],
    links: [],
    accounts: [],
    transactions: [],
  };
  const drawn = fc.sample(
    fc.array(
      fc.record({
        day: fc.integer({ min: 0, max: 140 }),
        cents: fc.oneof(fc.integer({ min: 1, max: 50_000 }), fc.constantFrom(1, 5, 8, 16, 25)),
        credit: fc.boolean(),
        category: fc.constantFrom('Food and Drink', 'General Merchandise', 'Entertainment'),
        merchant: fc.constantFrom('Cafe', 'Mart', 'Cinema'),
      }),
      { minLength: 3, maxLength: 25 },
    ),
    { numRuns: E2E_USERS.length - 1, seed: 487 },
  );
  for (const [u, user] of E2E_USERS.entries()) {
    tables.users?.push({
      id: user,
      name: user,
      email: `${user}@example.com`,
      created_at: '2024-01-01T00:00:00Z',
    });
    tables.links?.push({
      id: `${user}_l`,
      user_id: user,
      type: 'institution',
      name: 'Bank',
      status: 'active',
      created_at: '2024-01-01T00:00:00Z',
    });
    tables.accounts?.push({
      id: `${user}_a`,
      user_id: user,
      link_id: `${user}_l`,
      name: 'chk',
      type: 'depository',
    });
    const rows =
      user === 'u487'
        ? [
            { day: 3, cents: 40_000, credit: false, category: 'Food and Drink', merchant: 'Cafe' },
            {
              day: 40,
              cents: 40_000,
              credit: false,
              category: 'General Merchandise',
              merchant: 'Mart',
            },
            {
              day: 400,
              cents: 40_008,
              credit: false,
              category: 'General Merchandise',
              merchant: 'Mart',
            },
            { day: 10, cents: 250_000, credit: true, category: 'Income', merchant: 'Employer' },
          ]
        : (drawn[u - 1] ?? []);
    for (const [i, row] of rows.entries()) {
      tables.transactions?.push({
        id: `${user}_${String(i).padStart(3, '0')}`,
        user_id: user,
        account_id: `${user}_a`,
        transacted_at: startFor(TODAY, row.day + 1),
        amount: text(BigInt(row.cents)),
        direction: row.credit ? 'CREDIT' : 'DEBIT',
        description: `${row.merchant.toUpperCase()} 123`,
        merchant_name: row.merchant,
        category: row.credit ? 'Income' : row.category,
        subcategory: null,
        is_hidden: false,
        is_internal_transfer: false,
      });
    }
  }
  const dir = makeTempDir('exact-figures');
  await writeCsvFixture(dir, tables);
  t = await spendingTestApp(await buildStoreFromCsv(dir), E2E_USERS, TODAY);
});
afterAll(() => t?.close());

describe('end to end through the app', () => {
  it('a counted total of 1200.08 over 487 days averages 75.01 a month', async () => {
    const start = startFor(TODAY, 487);
    const response = await t.get(
      `group_by=category&time_period=month&start_date=${start}&end_date=${TODAY}`,
      { user: 'u487' },
    );
    expect(response.statusCode, response.body).toBe(200);
    const { summary } = response.json();
    expect(summary.total_spending).toBe('1200.08');
    expect(summary.average_monthly_spending).toBe('75.01');
    expect(summary.average_daily_spending).toBe('2.46');
  });

  it('every ratio of the answer matches the reference, for drawn windows and groupings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...E2E_USERS),
        windowDays.filter((days) => days <= 3000),
        fc.constantFrom(
          'category',
          'merchant',
          'time_period',
          'time_period&secondary_group_by=category',
        ),
        async (user, days, groupBy) => {
          const window = { start: startFor(TODAY, days), end: TODAY };
          const response = await t.get(
            `group_by=${groupBy}&time_period=month&start_date=${window.start}&end_date=${window.end}&min_total_amount=0&include_income=true`,
            { user },
          );
          expect(response.statusCode, response.body).toBe(200);
          expect(spendingBodyMismatches(response.json(), window)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
