import { describe, expect, it } from 'vitest';
import { money } from '../../src/domain/money.ts';
import { isLarger, SpendingFold, type SpendingGroup } from '../../src/domain/spending/fold.ts';
import type { LargestTransaction, SpendingQuery } from '../../src/domain/spending/model.ts';
import { shapeSpendingAnalysis } from '../../src/domain/spending/shape.ts';

const query = (overrides: Partial<SpendingQuery> = {}): SpendingQuery => ({
  userId: 'u1',
  window: { start: '2026-01-01', end: '2026-03-31' },
  groupBy: 'category',
  timePeriod: 'month',
  secondaryGroupBy: null,
  linkId: null,
  accountIds: [],
  categories: [],
  includeIncome: false,
  minTotalAmount: '0',
  withCashFlow: true,
  ...overrides,
});

const group = (overrides: Partial<SpendingGroup> = {}): SpendingGroup => ({
  direction: 'DEBIT',
  category: 'Groceries',
  merchant_name: 'Shop',
  subcategory: null,
  day: '2026-01-05',
  to_platform: false,
  amount: '10.00',
  count: 1,
  max_amount: '10.00',
  ...overrides,
});

const largest = (
  transaction_id: string,
  amount: string,
  date: string,
  description = 'x',
): LargestTransaction => ({
  transaction_id,
  amount,
  date,
  description,
  merchant_category_code: null,
});

function fold(q: SpendingQuery, groups: SpendingGroup[]) {
  const folding = new SpendingFold(q);
  for (const g of groups) folding.add(g);
  return folding;
}

describe('the spending fold', () => {
  it('sums money exactly, past what a double holds', () => {
    const { entries, summary } = fold(query(), [
      group({ amount: '0.10' }),
      group({ amount: '0.20' }),
      group({ amount: '99999999999999999.99', max_amount: '99999999999999999.99' }),
    ]).aggregates();
    expect(money(entries[0]?.amount as never)).toBe('100000000000000000.29');
    expect(summary.total.toFixed()).toBe('100000000000000000.29');
    expect(summary.count).toBe(3);
  });

  it('buckets days into ISO weeks starting on Monday', () => {
    const { entries } = fold(query({ groupBy: 'time_period', timePeriod: 'week' }), [
      group({ day: '2026-01-04', amount: '1.00' }), // Sunday: the week of Monday 2025-12-29
      group({ day: '2026-01-05', amount: '2.00' }), // Monday
      group({ day: '2026-01-11', amount: '3.00' }), // Sunday, same week
    ]).aggregates();
    expect(entries.map((e) => [e.key, e.amount.toFixed(2), e.count])).toEqual([
      ['2025-12-29', '1.00', 1],
      ['2026-01-05', '5.00', 2],
    ]);
  });

  it('leaves platform transfers out of the lists and the expenses, but keeps credits in income', () => {
    const folded = fold(query({ categories: ['Groceries'] }), [
      group({ amount: '30.00' }),
      group({ amount: '500.00', to_platform: true, category: 'Transfer' }),
      group({ direction: 'CREDIT', category: 'Income', amount: '1000.00' }),
      group({ category: 'Travel', amount: '70.00' }),
    ]).aggregates();
    // Only Groceries DEBITs are listed; the cash flow ignores categories and include_income.
    expect(folded.entries.map((e) => [e.flow, e.key])).toEqual([['spending', 'Groceries']]);
    expect(folded.summary.total.toFixed(2)).toBe('30.00');
    expect(folded.cashFlow.income.toFixed(2)).toBe('1000.00');
    expect(folded.cashFlow.expenses.toFixed(2)).toBe('100.00');
  });

  it('lists income entries only with include_income, and no cash flow without it asked', () => {
    const groups = [group(), group({ direction: 'CREDIT', category: 'Income', amount: '5.00' })];
    const withIncome = fold(query({ includeIncome: true, withCashFlow: false }), groups);
    expect(withIncome.aggregates().entries.map((e) => e.flow)).toEqual(['spending', 'income']);
    expect(withIncome.aggregates().cashFlow.income.isZero()).toBe(true);
    // The summary is the spending side only.
    expect(withIncome.aggregates().summary.total.toFixed(2)).toBe('10.00');
  });

  it('puts missing merchants and a real "Unknown" in one bucket, counted once as a name', () => {
    const { entries, summary } = fold(query({ groupBy: 'merchant' }), [
      group({ merchant_name: null }),
      group({ merchant_name: '' }),
      group({ merchant_name: 'Unknown' }),
      group({ merchant_name: 'Shop' }),
    ]).aggregates();
    expect(entries.map((e) => [e.key, e.count])).toEqual([
      ['Unknown', 3],
      ['Shop', 1],
    ]);
    expect(summary.uniqueMerchants).toBe(2);
  });

  it('breaks a category down by subcategory, a missing one as Uncategorized', () => {
    const { breakdowns } = fold(query(), [
      group({ subcategory: null }),
      group({ subcategory: '' }),
      group({ subcategory: 'Fruit' }),
    ]).aggregates();
    const subcategories = breakdowns
      .filter((row) => row.subcategory !== undefined)
      .map((row) => [row.subcategory, row.count]);
    expect(subcategories).toEqual([
      ['Uncategorized', 2],
      ['Fruit', 1],
    ]);
  });
});

describe('the largest transaction', () => {
  it('is the largest amount, then the latest date, then the smallest id by code point', () => {
    expect(isLarger(largest('b', '10.01', '2026-01-01'), largest('a', '10.00', '2026-02-01'))).toBe(
      true,
    );
    expect(isLarger(largest('b', '10.00', '2026-02-01'), largest('a', '10.00', '2026-01-01'))).toBe(
      true,
    );
    expect(isLarger(largest('a', '10.00', '2026-01-01'), largest('b', '10.00', '2026-01-01'))).toBe(
      true,
    );
    // U+E000 precedes U+10000 by code point, though not by UTF-16 unit.
    expect(
      isLarger(largest('\uE000', '1.00', '2026-01-01'), largest('\u{10000}', '1.00', '2026-01-01')),
    ).toBe(true);
  });

  it('is picked across groups and offered candidates alike', () => {
    const folding = new SpendingFold(query());
    folding.add(group({ max_amount: '40.00' }), largest('t9', '40.00', '2026-01-05'));
    folding.add(
      group({ day: '2026-01-07', max_amount: '40.00' }),
      largest('t7', '40.00', '2026-01-07'),
    );
    // A smaller amount, an uncounted category's row, then a tie on the latest day.
    folding.offerLargest(group(), largest('t1', '39.99', '2026-03-01'));
    folding.offerLargest(group({ direction: 'CREDIT' }), largest('t0', '99.00', '2026-03-01'));
    folding.offerLargest(group(), largest('t3', '40.00', '2026-01-07'));
    expect(folding.maxima()).toEqual(['40.00']);
    expect(folding.aggregates().entries[0]?.largest.transaction_id).toBe('t3');
  });
});

describe('is_recurring inputs and the single day', () => {
  it('asks amounts only for merchants with a cadence, one per counted row', () => {
    const monthly = ['2026-01-03', '2026-02-03', '2026-03-03'].map((day) =>
      group({ merchant_name: 'Gym', day }),
    );
    const folding = fold(query({ groupBy: 'merchant' }), [
      ...monthly,
      group({ merchant_name: 'Cafe', day: '2026-01-03' }),
      group({ merchant_name: 'Cafe', day: '2026-01-04' }),
    ]);
    expect([...folding.recurringMerchants()]).toEqual(['Gym']);
    folding.addAmount({ direction: 'DEBIT', merchant_name: 'Gym', amount: '10.00', count: 2 });
    folding.addAmount({ direction: 'DEBIT', merchant_name: 'Gym', amount: '12.50', count: '1' });
    const gym = folding.aggregates().entries.find((e) => e.key === 'Gym');
    expect(gym?.dates).toEqual(['2026-01-03', '2026-02-03', '2026-03-03']);
    expect(gym?.amountsInCents).toEqual([1000n, 1000n, 1250n]);
  });

  it('takes a monthly group’s days as its dates', () => {
    const { entries } = fold(query({ groupBy: 'merchant' }), [
      group({ day: '2026-01-01', days: ['2026-01-02', '2026-01-20'], count: 2 }),
    ]).aggregates();
    expect(entries[0]?.dates).toEqual(['2026-01-02', '2026-01-20']);
  });

  it('lists a single day’s counted ids in code point order', () => {
    const day = { start: '2026-01-05', end: '2026-01-05' };
    const folding = fold(query({ groupBy: 'time_period', timePeriod: 'day', window: day }), [
      group({ count: 3 }),
    ]);
    for (const id of ['\u{10000}', '\uE000', 'a']) {
      folding.addTransactionId({ id, direction: 'DEBIT', category: 'Groceries' });
    }
    folding.addTransactionId({ id: 'credit', direction: 'CREDIT', category: 'Income' });
    expect(folding.aggregates().entries[0]?.transactionIds).toEqual(['a', '\uE000', '\u{10000}']);
  });
});

describe('folded, then shaped', () => {
  it('ranks a period’s top 10 names (ties by name) and folds the rest and a real Other into one', () => {
    const q = query({
      groupBy: 'time_period',
      secondaryGroupBy: 'merchant',
      window: { start: '2026-01-01', end: '2026-01-31' },
    });
    const names = ['M01', 'M02', 'M03', 'M04', 'M05', 'M06', 'M07', 'M08', 'M09', 'M11', 'M10'];
    const groups = names.map((name, i) =>
      group({ merchant_name: name, amount: i >= 9 ? '1.00' : `${20 - i}.00` }),
    );
    groups.push(group({ merchant_name: 'Other', amount: '100.00', max_amount: '100.00' }));
    const body = shapeSpendingAnalysis(q, fold(q, groups).aggregates());
    const [january] = body.by_time_period ?? [];
    expect(january?.total_amount).toBe('246.00');
    expect(january?.breakdown.map((item) => [item.name, item.amount])).toEqual([
      ['M01', '20.00'],
      ['M02', '19.00'],
      ['M03', '18.00'],
      ['M04', '17.00'],
      ['M05', '16.00'],
      ['M06', '15.00'],
      ['M07', '14.00'],
      ['M08', '13.00'],
      ['M09', '12.00'],
      ['M10', '1.00'],
      ['Other', '101.00'],
    ]);
    expect(january?.breakdown.at(-1)).toMatchObject({ transaction_count: 2, percentage: '41.06' });
  });
});
