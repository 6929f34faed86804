/**
 * Edge cases of the spending endpoint against a second hand-made fixture
 * (test/fixtures/spending/edges, user e1, today 2026-03-15): calendar periods across a year
 * end, account type versus subtype, ties of the summary's top names, repeated and mixed-case
 * categories, and signed zeros. Expected figures computed by hand.
 *
 * e1's accounts: ec1 depository, eo1 type `other` with subtype `brokerage` (counted: the type
 * decides), ei1 type `investment` with subtype `checking` (never counted). Link status `error`.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpendingTestApp, spendingTestApp } from '../fixtures/spending/app.ts';
import { buildStoreFromCsv } from '../helpers/store.ts';

let t: SpendingTestApp;
beforeAll(async () => {
  const store = await buildStoreFromCsv(resolve(import.meta.dirname, '../fixtures/spending/edges'));
  t = await spendingTestApp(store, ['e1']);
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Body = any;
async function body(query: string): Promise<Body> {
  const response = await t.get(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const periods = (entries: Body[]) =>
  entries.map((entry: Body) => [
    entry.start_date,
    entry.end_date,
    entry.total_amount,
    entry.transaction_count,
    entry.trend,
  ]);

describe('periods are calendar periods, clipped to the window', () => {
  it('ISO week crossing a year end: Monday 2025-12-29 to Sunday 2026-01-04, clipped at the start', async () => {
    const { spending } = await body(
      'group_by=time_period&time_period=week&start_date=2025-12-30&end_date=2026-01-11',
    );
    expect(periods(spending.by_time_period)).toEqual([
      ['2025-12-30', '2026-01-04', '2010.00', 2, null], // w1 + w2 (eo1); not i1 (investment)
      ['2026-01-05', '2026-01-11', '1989.99', 1, '-1.00'], // (1989.99 - 2010) / 2010 = -0.9955%
    ]);
  });
  it('years clipped at both ends of the window', async () => {
    const { spending } = await body(
      'group_by=time_period&time_period=year&start_date=2025-12-30&end_date=2026-01-10',
    );
    expect(periods(spending.by_time_period)).toEqual([
      ['2025-12-30', '2025-12-31', '2000.00', 1, null],
      ['2026-01-01', '2026-01-10', '1999.99', 2, '-0.00'],
    ]);
  });
  it('the category trend compares the last two calendar periods across the year end', async () => {
    const { spending } = await body(
      'group_by=category&time_period=year&start_date=2025-12-01&end_date=2026-01-31',
    );
    expect(spending.by_category.map((entry: Body) => [entry.category, entry.trend])).toEqual([
      ['Travel', '-0.00'],
    ]);
  });
});

describe('spending rule 4: the account type decides, subtypes only describe, link status does not matter', () => {
  it('type other with subtype brokerage counts; type investment with subtype checking never does', async () => {
    const { spending, total_expenses } = await body(
      'group_by=merchant&time_period=month&start_date=2026-01-01&end_date=2026-01-31&min_total_amount=0',
    );
    expect(spending.by_merchant.map((entry: Body) => entry.merchant_name)).toEqual([
      'Gamma',
      'Beta',
    ]);
    expect(total_expenses).toBe('1999.99');
    const sweep = await body(
      'group_by=merchant&time_period=month&start_date=2026-01-01&account_ids=ei1&min_total_amount=0',
    );
    expect(sweep.spending.by_merchant).toEqual([]);
    expect(sweep.total_expenses).toBe('0.00');
  });
  it('spending rule 6 on any account type: a platform DEBIT from the other-type account is excluded', async () => {
    const result = await body('group_by=category&time_period=month&start_date=2026-03-01');
    expect(result.summary.total_transactions).toBe(1); // m1 only; not p1 (ROBINHOOD)
    expect(result.total_expenses).toBe('3000.50');
  });
});

describe('summary: top names by largest total, ties by name; Unknown never the top merchant', () => {
  it('categories tie at 79.00, merchants Yankee and Zulu tie at 40.00 behind the Unknown bucket', async () => {
    const { summary } = await body(
      'group_by=time_period&time_period=month&start_date=2026-02-01&end_date=2026-02-28',
    );
    expect(summary).toEqual({
      total_spending: '158.00',
      average_daily_spending: '5.64', // / 28 days
      average_monthly_spending: '171.75', // 158 / 28 x 30.4375 = 171.7544...
      total_transactions: 4,
      unique_merchants: 2,
      top_category: 'Entertainment',
      top_merchant: 'Yankee',
    });
  });
});

describe('filters: categories', () => {
  it('repeated, comma-separated and in any letter case, all merged', async () => {
    for (const query of [
      'categories=medical&categories=ENTERTAINMENT',
      'categories=Medical,%20entertainment%20',
      'categories=MEDICAL&categories=,Entertainment,',
    ]) {
      const { spending, summary } = await body(
        `group_by=category&time_period=month&start_date=2026-01-01&min_total_amount=0&${query}`,
      );
      expect(summary.total_spending, query).toBe('158.00');
      expect(
        spending.by_category.map((entry: Body) => entry.category),
        query,
      ).toEqual(['Entertainment', 'Medical']); // 79.00 each: name order
    }
  });
});

describe('figures: signed zeros', () => {
  it('savings_rate is negative when expenses exceed income, even below 0.05%: "-0.0"', async () => {
    const result = await body('group_by=category&time_period=month&start_date=2026-03-01');
    expect([result.total_income, result.total_expenses, result.savings_rate]).toEqual([
      '3000.00',
      '3000.50',
      '-0.0', // (3000 - 3000.50) / 3000 = -0.0167%
    ]);
  });
});
