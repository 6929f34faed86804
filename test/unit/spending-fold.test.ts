import { describe, expect, it } from 'vitest';
import { money } from '../../src/domain/money.ts';
import {
  isLarger,
  type LargestCandidate,
  SpendingFold,
  type SpendingGroup,
} from '../../src/domain/spending/fold.ts';
import type { SpendingQuery } from '../../src/domain/spending/model.ts';
import { shapeSpendingAnalysis } from '../../src/domain/spending/shape.ts';
import { spendingQuery } from '../helpers/spending-query.ts';

const query = (overrides: Partial<SpendingQuery> = {}): SpendingQuery =>
  spendingQuery({ window: { start: '2026-01-01', end: '2026-03-31' }, ...overrides });

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

const candidate = (
  id: string,
  amount: string,
  day: string,
  overrides: Partial<LargestCandidate> = {},
): LargestCandidate => ({
  id,
  amount,
  day,
  description: 'x',
  merchant_category_code: null,
  direction: 'DEBIT',
  category: 'Groceries',
  merchant_name: 'Shop',
  to_platform: false,
  ...overrides,
});

/** The groups folded, each offering its largest row as a daily rollup's group would. */
function fold(q: SpendingQuery, groups: SpendingGroup[]) {
  const folding = new SpendingFold(q);
  for (const g of groups) folding.add(g);
  groups.forEach(({ direction, category, merchant_name, to_platform, max_amount, day }, i) => {
    folding.offerLargest(
      candidate(`t${i}`, max_amount, day, { direction, category, merchant_name, to_platform }),
    );
  });
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

  it('lists income entries only with include_income; the cash flow counts credits either way', () => {
    const groups = [group(), group({ direction: 'CREDIT', category: 'Income', amount: '5.00' })];
    const withIncome = fold(query({ includeIncome: true }), groups).aggregates();
    expect(withIncome.entries.map((e) => e.flow)).toEqual(['spending', 'income']);
    // The summary is the spending side only.
    expect(withIncome.summary.total.toFixed(2)).toBe('10.00');
    const spendingOnly = fold(query(), groups).aggregates();
    expect(spendingOnly.entries.map((e) => e.flow)).toEqual(['spending']);
    expect(spendingOnly.cashFlow.income.toFixed(2)).toBe('5.00');
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
    expect(
      isLarger(candidate('b', '10.01', '2026-01-01'), candidate('a', '10.00', '2026-02-01')),
    ).toBe(true);
    expect(
      isLarger(candidate('b', '10.00', '2026-02-01'), candidate('a', '10.00', '2026-01-01')),
    ).toBe(true);
    expect(
      isLarger(candidate('a', '10.00', '2026-01-01'), candidate('b', '10.00', '2026-01-01')),
    ).toBe(true);
    // U+E000 precedes U+10000 by code point, though not by UTF-16 unit.
    expect(
      isLarger(
        candidate('\uE000', '1.00', '2026-01-01'),
        candidate('\u{10000}', '1.00', '2026-01-01'),
      ),
    ).toBe(true);
  });

  it('is picked among the candidates at its entry’s maximum that the rules count', () => {
    const folding = new SpendingFold(query());
    folding.add(group({ max_amount: '40.00' }));
    folding.add(group({ day: '2026-01-07', max_amount: '40.00' }));
    expect(folding.maxima().map((amount) => amount.toFixed(2))).toEqual(['40.00']);
    folding.offerLargest(candidate('t9', '40.00', '2026-01-05'));
    folding.offerLargest(candidate('t7', '40.00', '2026-01-07'));
    // Below the maximum, a CREDIT without include_income, a platform transfer, another
    // category's row: none is the entry's.
    folding.offerLargest(candidate('t1', '39.99', '2026-03-01'));
    folding.offerLargest(candidate('t0', '40.00', '2026-03-01', { direction: 'CREDIT' }));
    folding.offerLargest(candidate('t2', '40.00', '2026-03-01', { to_platform: true }));
    folding.offerLargest(candidate('t4', '40.00', '2026-03-01', { category: 'Travel' }));
    // A tie on the latest day: the smaller id.
    folding.offerLargest(candidate('t3', '40.00', '2026-01-07'));
    const [entry] = folding.aggregates().entries;
    expect(entry?.largest.transactionId).toBe('t3');
    expect(money(entry?.largest.amount as never)).toBe('40.00');
  });

  it('is picked across groups that bring their largest rows, and then needs no candidates', () => {
    const folding = new SpendingFold(query());
    const row = (id: string, day: string) => ({
      id,
      day,
      description: id,
      merchant_category_code: null,
    });
    folding.add(group({ max_amount: '40.00', largest: row('t9', '2026-01-05') }));
    folding.add(group({ max_amount: '12.00', largest: row('t1', '2026-03-01') }));
    folding.add(
      group({ day: '2026-01-07', max_amount: '40.00', largest: row('t7', '2026-01-07') }),
    );
    folding.add(
      group({ day: '2026-01-07', max_amount: '40.00', largest: row('t3', '2026-01-07') }),
    );
    // A platform transfer's group is no entry's.
    folding.add(
      group({ max_amount: '99.00', to_platform: true, largest: row('t0', '2026-03-01') }),
    );
    expect(folding.maxima()).toEqual([]);
    const [entry] = folding.aggregates().entries;
    expect(entry?.largest).toMatchObject({ transactionId: 't3', date: '2026-01-07' });
    expect(money(entry?.largest.amount as never)).toBe('40.00');
  });

  it('must be offered: an entry without one fails rather than answering without it', () => {
    const folding = new SpendingFold(query());
    folding.add(group({ max_amount: '40.00' }));
    folding.offerLargest(candidate('t1', '39.99', '2026-01-05'));
    expect(() => folding.aggregates()).toThrow(/no largest transaction/);
  });
});

describe('is_recurring inputs and the single day', () => {
  it('asks amounts only for merchants with a cadence, by their stored names, one per counted row', () => {
    const monthly = ['2026-01-03', '2026-02-03', '2026-03-03'].map((day, i) =>
      group({ merchant_name: i === 0 ? null : i === 1 ? '' : 'Unknown', day }),
    );
    const folding = fold(query({ groupBy: 'merchant' }), [
      ...monthly,
      group({ merchant_name: 'Cafe', day: '2026-01-03' }),
      group({ merchant_name: 'Cafe', day: '2026-01-04' }),
    ]);
    expect(folding.recurringMerchantNames()).toEqual([null, '', 'Unknown']);
    const row = { direction: 'DEBIT', category: 'Groceries', to_platform: false } as const;
    folding.addAmount({ ...row, merchant_name: null, amount: '10.00', count: 2 });
    folding.addAmount({ ...row, merchant_name: 'Unknown', amount: '12.50', count: '1' });
    // Not counted, or not a recurring entry's: left out.
    folding.addAmount({ ...row, merchant_name: '', amount: '99.00', count: 1, to_platform: true });
    folding.addAmount({ ...row, merchant_name: 'Cafe', amount: '3.00', count: 1 });
    const [unknown, cafe] = folding.aggregates().entries;
    expect(unknown?.key).toBe('Unknown');
    expect(unknown?.dates).toEqual(['2026-01-03', '2026-02-03', '2026-03-03']);
    expect(unknown?.amountsInCents).toEqual([1000n, 1000n, 1250n]);
    expect(cafe?.amountsInCents).toEqual([]);
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
    const row = { direction: 'DEBIT', category: 'Groceries', to_platform: false } as const;
    for (const id of ['\u{10000}', '\uE000', 'a']) folding.addTransactionId({ ...row, id });
    folding.addTransactionId({ ...row, id: 'credit', direction: 'CREDIT', category: 'Income' });
    folding.addTransactionId({ ...row, id: 'platform', to_platform: true });
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
    const analysis = shapeSpendingAnalysis(q, fold(q, groups).aggregates());
    const [january] = analysis.enrichedPeriods ?? [];
    expect(money(january?.totalAmount as never)).toBe('246.00');
    expect(january?.breakdown.map((item) => [item.name, money(item.amount)])).toEqual([
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
    const other = january?.breakdown.at(-1);
    expect(other?.transactionCount).toBe(2);
    expect(money(other?.percentage as never)).toBe('41.06');
  });
});
