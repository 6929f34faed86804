/**
 * The spending endpoint against a small hand-made fixture (test/fixtures/spending/basic), one
 * test per rule of docs/api.md and bullet of docs/api.md; expected figures computed by hand.
 * Today is 2026-03-15. The window W = start_date=2026-01-01 (to today) counts t01..t17 of u1:
 * 4071.25 in 17 DEBITs; excluded: x01/x02/x11 (platforms), x03/x10 (hidden), x04 (internal),
 * x05/x06 (investment account), x07/x13/x14 (before W), x08 (future), x09 (user u2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicFixtureApp, type SpendingTestApp } from '../fixtures/spending/app.ts';

let t: SpendingTestApp;
beforeAll(async () => {
  t = await basicFixtureApp();
});
afterAll(() => t.close());

const W = 'start_date=2026-01-01';
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Body = any;
async function body(query: string, user = 'u1'): Promise<Body> {
  const response = await t.get(query, { user });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const names = (entries: Body[], key = 'category') => entries.map((entry) => entry[key]);
const byName = (entries: Body[], name: string, key = 'category') =>
  entries.find((entry) => entry[key] === name);

describe('api-spec rule 1 / window: end_date omitted or future is capped at today', () => {
  it('a future end_date gives the same analysis as none (x08 on 2026-03-16 never counts)', async () => {
    const capped = await body(`group_by=category&time_period=month&${W}&end_date=2026-12-31`);
    const omitted = await body(`group_by=category&time_period=month&${W}`);
    expect(capped.summary).toEqual(omitted.summary);
    expect(capped.summary.total_spending).toBe('4071.25');
  });
  it('start_date omitted: the trailing year 2025-03-16..2026-03-15 (x14 in, x13 out)', async () => {
    const { summary } = await body('group_by=category&time_period=month');
    expect(summary.total_spending).toBe('4183.25'); // W + x07 99.00 + x14 13.00
    expect(summary.average_daily_spending).toBe('11.46'); // / 365 days
    expect(summary.average_monthly_spending).toBe('348.84');
  });
  it('a window ending in the past ends there', async () => {
    const { summary } = await body(`group_by=category&time_period=month&${W}&end_date=2026-01-31`);
    expect(summary.total_spending).toBe('501.00');
  });
});

describe('api-spec rule 2: no matching transactions -> empty lists, still 200', () => {
  it.each(['category', 'merchant', 'time_period'])('group_by=%s', async (groupBy) => {
    const result = await body(
      `group_by=${groupBy}&time_period=month&start_date=2020-01-01&end_date=2020-12-31`,
    );
    const filled = {
      category: 'by_category',
      merchant: 'by_merchant',
      time_period: 'by_time_period',
    }[groupBy] as string;
    expect(result.spending[filled]).toEqual([]);
    expect(result.summary).toEqual({
      total_spending: '0.00',
      average_daily_spending: '0.00',
      average_monthly_spending: '0.00',
      total_transactions: 0,
      unique_merchants: 0,
      top_category: '',
      top_merchant: '',
    });
    expect(result.total_income).toBe('0.00');
    expect(result.savings_rate).toBeNull();
  });
  it('double aggregation with nothing counted gives an empty top-level by_time_period', async () => {
    const result = await body(
      'group_by=time_period&time_period=month&secondary_group_by=category&start_date=2020-01-01&end_date=2020-12-31',
    );
    expect(result.by_time_period).toEqual([]);
  });
});

describe('api-spec rule 3 / breakdown: top 10 by amount (ties by code point) plus one Other', () => {
  it('u3: ten ranked merchants, then Other = the rest and the real Other, last', async () => {
    const result = await body(
      'group_by=time_period&time_period=month&secondary_group_by=merchant&start_date=2026-03-01',
      'u3',
    );
    expect(result.by_time_period).toHaveLength(1);
    const [march] = result.by_time_period;
    expect(march).toMatchObject({
      start_date: '2026-03-01',
      end_date: '2026-03-15',
      total_amount: '765.00',
      transaction_count: 13,
      percentage_of_total: '100.00',
      trend: null,
    });
    expect(march.breakdown.map((item: Body) => item.name)).toEqual([
      'Alpha',
      'Bravo',
      'Charlie',
      'Delta',
      'Echo',
      'Foxtrot',
      'Golf',
      'Hotel',
      'India',
      'Ａ Shop', // U+FF21 sorts before U+1F600 by code point (not by UTF-16 unit)
      'Other',
    ]);
    expect(march.breakdown[0]).toEqual({
      name: 'Alpha',
      amount: '100.00',
      transaction_count: 1,
      percentage: '13.07',
    });
    // 😀 Cafe 10.00 + Juliet 5.00 + the real merchant "Other" 200.00
    expect(march.breakdown[10]).toEqual({
      name: 'Other',
      amount: '215.00',
      transaction_count: 3,
      percentage: '28.10',
    });
  });
  it('u1 by category: a real Other always goes to the rest, even with fewer than 10 names', async () => {
    const result = await body(
      `group_by=time_period&time_period=month&secondary_group_by=category&${W}`,
    );
    const [january, february, march] = result.by_time_period;
    expect(january.breakdown.map((item: Body) => item.name)).toEqual([
      'Transportation',
      'Entertainment',
      'Food and Drink',
      'General Merchandise',
    ]);
    expect(february.breakdown.at(-1).name).toBe('Home Improvement');
    expect(march.breakdown).toEqual([
      { name: 'Rent and Utilities', amount: '1500.00', transaction_count: 1, percentage: '90.63' },
      { name: 'Entertainment', amount: '100.00', transaction_count: 1, percentage: '6.04' },
      { name: 'Food and Drink', amount: '40.00', transaction_count: 2, percentage: '2.42' },
      { name: 'Bank Fees', amount: '10.00', transaction_count: 1, percentage: '0.60' },
      { name: 'Other', amount: '5.00', transaction_count: 1, percentage: '0.30' },
    ]);
  });
  it('top-level periods: totals, share of all spending, period trends; no flow', async () => {
    const result = await body(
      `group_by=time_period&time_period=month&secondary_group_by=category&${W}`,
    );
    expect(
      result.by_time_period.map((period: Body) => [
        period.start_date,
        period.end_date,
        period.total_amount,
        period.transaction_count,
        period.percentage_of_total,
        period.trend,
        period.flow,
      ]),
    ).toEqual([
      ['2026-01-01', '2026-01-31', '501.00', 5, '12.31', null, undefined],
      ['2026-02-01', '2026-02-28', '1915.25', 6, '47.04', '282.29', undefined],
      ['2026-03-01', '2026-03-15', '1655.00', 6, '40.65', '-13.59', undefined],
    ]);
  });
  it('top-level by_time_period is null without secondary_group_by or with another group_by', async () => {
    expect((await body(`group_by=time_period&time_period=month&${W}`)).by_time_period).toBeNull();
    expect(
      (await body(`group_by=category&time_period=month&secondary_group_by=merchant&${W}`))
        .by_time_period,
    ).toBeNull();
  });
  it('top-level by_time_period never changes with include_income', async () => {
    const query = `group_by=time_period&time_period=week&secondary_group_by=merchant&${W}`;
    expect((await body(`${query}&include_income=true`)).by_time_period).toEqual(
      (await body(query)).by_time_period,
    );
  });
});

describe('rules 3-4 and 6 of the spending basis: hidden, internal, investment accounts, platforms', () => {
  it('only t01..t17 count in W', async () => {
    const { spending, summary } = await body(
      `group_by=time_period&time_period=year&${W}&include_income=false`,
    );
    expect(summary.total_transactions).toBe(17);
    expect(spending.by_time_period[0].total_amount).toBe('4071.25');
  });
  it('rule 4: an investment account id yields empty results', async () => {
    const result = await body(`group_by=category&time_period=month&${W}&account_ids=acc_brk`);
    expect(result.spending.by_category).toEqual([]);
    expect(result.total_income).toBe('0.00'); // the dividend x06 is not income either
  });
  it('rule 5: DEBIT transfers to investment platforms are excluded; look-alikes stay', async () => {
    const { spending } = await body(`group_by=merchant&time_period=month&${W}&min_total_amount=0`);
    const merchants = names(spending.by_merchant, 'merchant_name');
    expect(merchants).not.toContain('Coinbase');
    expect(merchants).toContain('Les Schwab Tire Centers');
    expect(merchants).toContain('Fidelity Life');
    expect(byName(spending.by_merchant, 'Unknown', 'merchant_name').total_amount).toBe('75.50');
  });
  it('rule 6: CREDITs from investment platforms are kept (income entries, total_income)', async () => {
    const result = await body(
      `group_by=merchant&time_period=month&${W}&include_income=true&min_total_amount=0`,
    );
    const robinhood = result.spending.by_merchant.find(
      (entry: Body) => entry.merchant_name === 'Robinhood',
    );
    expect(robinhood).toMatchObject({ flow: 'income', total_amount: '200.00' });
    expect(result.total_income).toBe('9220.00');
  });
});

describe('api-spec rule 7 / cash flow: total_income, total_expenses, savings_rate', () => {
  it('whole-window totals on the cash-flow basis', async () => {
    const result = await body(`group_by=category&time_period=month&${W}`);
    expect(result.total_income).toBe('9220.00'); // c01-c05; not c06 (internal) nor x06
    expect(result.total_expenses).toBe('4071.25');
    expect(result.savings_rate).toBe('55.8');
  });
  it('never narrowed by categories, include_income or min_total_amount', async () => {
    const result = await body(
      `group_by=category&time_period=month&${W}&categories=Food and Drink&include_income=true&min_total_amount=100000`,
    );
    expect(result.summary.total_spending).toBe('191.25');
    expect([result.total_income, result.total_expenses, result.savings_rate]).toEqual([
      '9220.00',
      '4071.25',
      '55.8',
    ]);
  });
  it('scoped by link_id and account_ids', async () => {
    const card = await body(`group_by=category&time_period=month&${W}&account_ids=acc_card`);
    expect([card.total_income, card.total_expenses, card.savings_rate]).toEqual([
      '20.00',
      '566.25',
      '-2731.3',
    ]);
    const creditUnion = await body(`group_by=category&time_period=month&${W}&link_id=link_cu`);
    expect([creditUnion.total_income, creditUnion.total_expenses]).toEqual(['0.00', '120.00']);
  });
  it('savings_rate is negative when expenses exceed income', async () => {
    const result = await body(
      'group_by=category&time_period=month&start_date=2026-02-26&end_date=2026-03-12',
    );
    expect([result.total_income, result.total_expenses, result.savings_rate]).toEqual([
      '20.00',
      '1610.00',
      '-7950.0',
    ]);
  });
  it('savings_rate is null when there is no income', async () => {
    const result = await body(
      'group_by=category&time_period=month&start_date=2026-03-03&end_date=2026-03-12',
    );
    expect([result.total_income, result.total_expenses, result.savings_rate]).toEqual([
      '0.00',
      '110.00',
      null,
    ]);
  });
});

describe('transaction_ids rules 1-3', () => {
  const singleDay =
    'group_by=time_period&time_period=day&start_date=2026-03-14&end_date=2026-03-14';
  it('rules 1 and 3: the counted ids of the day, ordered by id; length = transaction_count', async () => {
    const { spending } = await body(singleDay);
    expect(spending.by_time_period).toEqual([
      {
        time_period: 'day',
        start_date: '2026-03-14',
        end_date: '2026-03-14',
        total_amount: '45.00',
        transaction_count: 3,
        average_transaction: '15.00',
        percentage_of_total: '100.00',
        // t06 and t07 tie on amount and date: the smallest id wins
        largest_transaction: {
          transaction_id: 't06',
          amount: '20.00',
          date: '2026-03-14',
          description: 'STARBUCKS STORE 1234',
          merchant_category_code: '5814',
        },
        trend: null,
        transaction_ids: ['t06', 't07', 't13'], // not x10 (hidden) nor x11 (platform)
        flow: 'spending',
      },
    ]);
  });
  it('an income entry lists its own counted credits', async () => {
    const { spending } = await body(`${singleDay}&include_income=true`);
    expect(
      spending.by_time_period.map((entry: Body) => [entry.flow, entry.transaction_ids]),
    ).toEqual([
      ['spending', ['t06', 't07', 't13']],
      ['income', ['c03']],
    ]);
  });
  it('rule 2: null for every other request', async () => {
    for (const query of [
      'group_by=time_period&time_period=day&start_date=2026-03-13&end_date=2026-03-14',
      'group_by=time_period&time_period=week&start_date=2026-03-14&end_date=2026-03-14',
      'group_by=time_period&time_period=day&start_date=2026-03-15', // equals today, end omitted
    ]) {
      const { spending } = await body(query);
      for (const entry of spending.by_time_period) {
        const expected = query.endsWith('2026-03-15') ? [] : null;
        if (expected === null) expect(entry.transaction_ids, query).toBeNull();
      }
    }
    const today = await body('group_by=time_period&time_period=day&start_date=2026-03-15');
    expect(today.spending.by_time_period).toEqual([]);
  });
});

describe('filters', () => {
  it('account_ids: comma-separated, trimmed, empty items ignored, repeatable', async () => {
    const expected = '686.25'; // card 566.25 + credit union 120.00
    for (const query of [
      'account_ids=acc_card,acc_cu',
      'account_ids=%20acc_card%20,%20,,acc_cu',
      'account_ids=acc_card&account_ids=acc_cu',
    ]) {
      const { summary } = await body(`group_by=category&time_period=month&${W}&${query}`);
      expect(summary.total_spending, query).toBe(expected);
    }
  });
  it('a value with no items is no filter; so is an empty link_id', async () => {
    for (const query of ['account_ids=', 'account_ids=,', 'categories=%20,', 'link_id=']) {
      const { summary } = await body(`group_by=category&time_period=month&${W}&${query}`);
      expect(summary.total_spending, query).toBe('4071.25');
    }
  });
  it("another user's (or an unknown) account or link matches nothing, never an error", async () => {
    for (const query of [
      'account_ids=acc_u2',
      'account_ids=nope',
      'link_id=link_u2',
      'link_id=nope',
    ]) {
      const result = await body(`group_by=category&time_period=month&${W}&${query}`);
      expect(result.spending.by_category, query).toEqual([]);
      expect(result.total_expenses, query).toBe('0.00');
    }
  });
  it('link_id scopes to the accounts of that link (link status does not matter)', async () => {
    const { spending } = await body(`group_by=merchant&time_period=month&${W}&link_id=link_cu`);
    expect(names(spending.by_merchant, 'merchant_name')).toEqual(['Shell']);
  });
  it('categories match the taxonomy case-insensitively', async () => {
    const { spending, summary } = await body(
      `group_by=category&time_period=month&${W}&categories=food and drink,RENT AND UTILITIES`,
    );
    expect(names(spending.by_category)).toEqual(['Rent and Utilities', 'Food and Drink']);
    expect(summary.total_spending).toBe('3191.25');
  });
  it('categories narrow the summary (spending rule 7); top merchant never Unknown', async () => {
    const { summary } = await body(`group_by=category&time_period=month&${W}&categories=Bank Fees`);
    expect(summary).toMatchObject({
      total_spending: '10.00',
      top_category: 'Bank Fees',
      top_merchant: '',
      unique_merchants: 0,
    });
  });
  it('min_total_amount (default 50.00) drops category entries below it, equal stays', async () => {
    const { spending } = await body(`group_by=category&time_period=month&${W}`);
    expect(names(spending.by_category)).toEqual([
      'Rent and Utilities',
      'Transportation',
      'Entertainment',
      'Food and Drink',
      'General Services',
      'General Merchandise', // ties with Home Improvement at 60.00: name order
      'Home Improvement',
    ]);
    const above = await body(`group_by=category&time_period=month&${W}&min_total_amount=75.01`);
    expect(names(above.spending.by_category)).not.toContain('General Services');
    const exactly = await body(`group_by=category&time_period=month&${W}&min_total_amount=75`);
    expect(names(exactly.spending.by_category)).toContain('General Services');
  });
  it('min_total_amount drops merchant entries too, in pydantic Decimal notation', async () => {
    const { spending } = await body(
      `group_by=merchant&time_period=month&${W}&min_total_amount=1e2`,
    );
    expect(names(spending.by_merchant, 'merchant_name')).toEqual([
      'Landlord LLC',
      'Netflix',
      'Les Schwab Tire Centers',
      'Shell', // ties with Target at 120.00: name order
      'Target',
      'Whole Foods',
    ]);
  });
  it('min_total_amount never removes periods, breakdown items or subcategories, nor changes summary or percentages', async () => {
    const high = 'min_total_amount=100000';
    const periods = await body(
      `group_by=time_period&time_period=month&secondary_group_by=category&${W}&${high}`,
    );
    expect(periods.spending.by_time_period).toHaveLength(3);
    expect(periods.by_time_period[2].breakdown).toHaveLength(5);
    const low = await body(`group_by=category&time_period=month&${W}&min_total_amount=0`);
    const foodAndDrink = byName(low.spending.by_category, 'Food and Drink');
    expect(foodAndDrink.subcategories).toHaveLength(4);
    expect(foodAndDrink.percentage_of_total).toBe('4.70');
    const dropped = await body(`group_by=category&time_period=month&${W}&${high}`);
    expect(dropped.spending.by_category).toEqual([]);
    expect(dropped.summary).toEqual(low.summary);
    expect(dropped.total_income).toBe(low.total_income);
  });
});

describe('grouping', () => {
  it.each([
    ['category', 'by_category'],
    ['merchant', 'by_merchant'],
    ['time_period', 'by_time_period'],
  ])('group_by=%s fills spending.%s only; the others are null', async (groupBy, filled) => {
    const { spending } = await body(`group_by=${groupBy}&time_period=month&${W}`);
    for (const list of ['by_category', 'by_merchant', 'by_time_period']) {
      if (list === filled) expect(spending[list].length).toBeGreaterThan(0);
      else expect(spending[list]).toBeNull();
    }
  });
  it('a category entry in full', async () => {
    const { spending } = await body(`group_by=category&time_period=month&${W}`);
    expect(byName(spending.by_category, 'Food and Drink')).toEqual({
      category: 'Food and Drink',
      total_amount: '191.25',
      transaction_count: 5,
      average_transaction: '38.25',
      percentage_of_total: '4.70',
      largest_transaction: {
        transaction_id: 't05',
        amount: '60.25',
        date: '2026-02-12',
        description: 'WHOLEFDS #123',
        merchant_category_code: '5411',
      },
      trend: '-33.61', // March 40.00 against February 60.25
      flow: 'spending',
      // amount desc; Coffee and Uncategorized tie at 20.00: name order
      subcategories: [
        { name: 'Groceries', amount: '105.75', count: 2 },
        { name: 'Takeout', amount: '45.50', count: 1 },
        { name: 'Coffee', amount: '20.00', count: 1 },
        { name: 'Uncategorized', amount: '20.00', count: 1 },
      ],
      time_series: [
        { start_date: '2026-01-01', end_date: '2026-01-31', amount: '91.00', count: 2 },
        { start_date: '2026-02-01', end_date: '2026-02-28', amount: '60.25', count: 1 },
        { start_date: '2026-03-01', end_date: '2026-03-15', amount: '40.00', count: 2 },
      ],
    });
  });
  it('largest_transaction ties: latest date first', async () => {
    const { spending } = await body(`group_by=category&time_period=month&${W}`);
    expect(
      byName(spending.by_category, 'Rent and Utilities').largest_transaction.transaction_id,
    ).toBe('t09');
  });
  it('a real subcategory Uncategorized shares the bucket of missing ones', async () => {
    const { spending } = await body(`group_by=category&time_period=month&${W}&min_total_amount=0`);
    expect(byName(spending.by_category, 'Other').subcategories).toEqual([
      { name: 'Uncategorized', amount: '5.00', count: 1 },
    ]);
  });
  it('merchant key: missing names and a real Unknown share the Unknown bucket; its category is the largest', async () => {
    const { spending } = await body(`group_by=merchant&time_period=month&${W}`);
    expect(byName(spending.by_merchant, 'Unknown', 'merchant_name')).toEqual({
      merchant_name: 'Unknown',
      category: 'Food and Drink', // 65.50 against Bank Fees 10.00
      total_amount: '75.50',
      transaction_count: 3,
      average_transaction: '25.17',
      percentage_of_total: '1.85',
      largest_transaction: {
        transaction_id: 't14',
        amount: '45.50',
        date: '2026-01-10',
        description: 'TAKEOUT',
        merchant_category_code: '5812',
      },
      trend: null, // February had none
      flow: 'spending',
      is_recurring: false,
      time_series: [
        { start_date: '2026-01-01', end_date: '2026-01-31', amount: '45.50', count: 1 },
        { start_date: '2026-03-01', end_date: '2026-03-15', amount: '30.00', count: 2 },
      ],
    });
  });
  it("a merchant's category ties are broken by name", async () => {
    const { spending } = await body(`group_by=merchant&time_period=month&${W}`);
    expect(byName(spending.by_merchant, 'Target', 'merchant_name').category).toBe(
      'General Merchandise',
    );
  });
  it('period entries: only periods with counted transactions, ascending, clipped', async () => {
    const { spending } = await body(
      'group_by=time_period&time_period=week&start_date=2026-02-26&end_date=2026-03-12',
    );
    expect(
      spending.by_time_period.map((entry: Body) => [
        entry.start_date,
        entry.end_date,
        entry.total_amount,
      ]),
    ).toEqual([
      ['2026-02-26', '2026-03-01', '1500.00'], // week of Mon 02-23, clipped at the start
      ['2026-03-02', '2026-03-08', '100.00'],
      ['2026-03-09', '2026-03-12', '10.00'], // clipped at the end
    ]);
  });
  it('time_series points are clipped to the window and ascending', async () => {
    const { spending } = await body(
      'group_by=category&time_period=quarter&start_date=2026-01-10&min_total_amount=0',
    );
    expect(byName(spending.by_category, 'Food and Drink').time_series).toEqual([
      { start_date: '2026-01-10', end_date: '2026-03-15', amount: '191.25', count: 5 },
    ]);
  });
  it('name ties compare by code point (u3 merchants at 10.00)', async () => {
    const { spending } = await body(
      'group_by=merchant&time_period=month&start_date=2026-03-01&min_total_amount=10',
      'u3',
    );
    expect(names(spending.by_merchant, 'merchant_name').slice(-3)).toEqual([
      'India',
      'Ａ Shop',
      '😀 Cafe',
    ]);
  });
});

describe('summary', () => {
  it('totals, averages over the days of the window, distinct merchants, top names', async () => {
    const { summary } = await body(`group_by=merchant&time_period=month&${W}`);
    expect(summary).toEqual({
      total_spending: '4071.25',
      average_daily_spending: '55.02', // / 74 days
      average_monthly_spending: '1674.58', // unrounded daily x 30.4375
      total_transactions: 17,
      unique_merchants: 10, // the real "Unknown" counts; missing names do not
      top_category: 'Rent and Utilities',
      top_merchant: 'Landlord LLC',
    });
  });
  it('the same summary whatever group_by', async () => {
    const summaries = await Promise.all(
      ['category', 'merchant', 'time_period'].map(
        async (groupBy) => (await body(`group_by=${groupBy}&time_period=week&${W}`)).summary,
      ),
    );
    expect(summaries[1]).toEqual(summaries[0]);
    expect(summaries[2]).toEqual(summaries[0]);
  });
});

describe('include_income', () => {
  it('false: spending entries only, each with flow "spending"', async () => {
    const { spending } = await body(`group_by=category&time_period=month&${W}`);
    expect(new Set(spending.by_category.map((entry: Body) => entry.flow))).toEqual(
      new Set(['spending']),
    );
  });
  it('true: income entries appended, percentages of the income total, min_total_amount applied', async () => {
    const without = await body(`group_by=category&time_period=month&${W}`);
    const withIncome = await body(`group_by=category&time_period=month&${W}&include_income=true`);
    const spendingCount = without.spending.by_category.length;
    expect(withIncome.spending.by_category.slice(0, spendingCount)).toEqual(
      without.spending.by_category,
    );
    expect(
      withIncome.spending.by_category
        .slice(spendingCount)
        .map((entry: Body) => [
          entry.category,
          entry.flow,
          entry.total_amount,
          entry.percentage_of_total,
        ]),
    ).toEqual([
      ['Income', 'income', '9000.00', '97.61'],
      ['Transfer In', 'income', '200.00', '2.17'], // the Food and Drink refund (20.00) is below 50
    ]);
    expect(withIncome.summary).toEqual(without.summary);
  });
  it('income is narrowed by categories, its percentage on its own basis', async () => {
    const { spending } = await body(
      `group_by=category&time_period=month&${W}&include_income=true&categories=Food and Drink&min_total_amount=0`,
    );
    expect(byName(spending.by_category.slice(1), 'Food and Drink')).toMatchObject({
      flow: 'income',
      total_amount: '20.00',
      percentage_of_total: '100.00',
    });
  });
  it('income merchants use the same is_recurring rule', async () => {
    const { spending } = await body(`group_by=merchant&time_period=month&${W}&include_income=true`);
    expect(byName(spending.by_merchant, 'Acme Corp', 'merchant_name')).toMatchObject({
      flow: 'income',
      is_recurring: true,
      category: 'Income',
      trend: '0.00',
    });
  });
  it('income periods get their own trend', async () => {
    const { spending } = await body(
      `group_by=time_period&time_period=month&${W}&include_income=true`,
    );
    const income = spending.by_time_period.filter((entry: Body) => entry.flow === 'income');
    expect(income.map((entry: Body) => [entry.total_amount, entry.trend])).toEqual([
      ['3000.00', null],
      ['3200.00', '6.67'],
      ['3020.00', '-5.63'],
    ]);
  });
});

describe('figures: trend', () => {
  it('period trend: against the calendar period just before; null for the first period', async () => {
    const { spending } = await body(`group_by=time_period&time_period=month&${W}`);
    expect(spending.by_time_period.map((entry: Body) => entry.trend)).toEqual([
      null,
      '282.29',
      '-13.59',
    ]);
  });
  it('a clipped first period counts its clipped part', async () => {
    const { spending } = await body('group_by=time_period&time_period=month&start_date=2026-01-10');
    expect(
      spending.by_time_period.map((entry: Body) => [
        entry.start_date,
        entry.total_amount,
        entry.trend,
      ]),
    ).toEqual([
      ['2026-01-10', '401.00', null],
      ['2026-02-01', '1915.25', '377.62'],
      ['2026-03-01', '1655.00', '-13.59'],
    ]);
  });
  it('period trend is null when the period before had nothing', async () => {
    const { spending } = await body(
      'group_by=time_period&time_period=day&start_date=2026-03-13&end_date=2026-03-14',
    );
    expect(spending.by_time_period.map((entry: Body) => entry.trend)).toEqual([null]);
  });
  it('category/merchant trend: last period against the one before; -100.00 and null cases', async () => {
    const { spending } = await body(`group_by=merchant&time_period=month&${W}`);
    const trendOf = (name: string) => byName(spending.by_merchant, name, 'merchant_name').trend;
    expect(trendOf('Netflix')).toBe('0.00');
    expect(trendOf('Target')).toBe('-100.00'); // February 60.00, March none
    expect(trendOf('Les Schwab Tire Centers')).toBeNull(); // February none
  });
  it('category trend is null when the window has one period', async () => {
    const { spending } = await body(`group_by=category&time_period=quarter&${W}`);
    expect(spending.by_category.every((entry: Body) => entry.trend === null)).toBe(true);
  });
});

describe('is_recurring', () => {
  it('Netflix monthly at a steady amount is recurring; two rent dates are not', async () => {
    const { spending } = await body(`group_by=merchant&time_period=month&${W}`);
    expect(byName(spending.by_merchant, 'Netflix', 'merchant_name').is_recurring).toBe(true);
    expect(byName(spending.by_merchant, 'Landlord LLC', 'merchant_name').is_recurring).toBe(false);
  });
});

describe('request_id and created_at', () => {
  it('request_id equals x-request-id; created_at is an ISO timestamp', async () => {
    const response = await t.get(`group_by=category&time_period=month&${W}`);
    const result = response.json();
    expect(result.request_id).toBe(response.headers['x-request-id']);
    expect(new Date(result.created_at).toISOString()).toBe(result.created_at);
  });
});

describe('isolation', () => {
  it("no other user's transaction is ever counted", async () => {
    const u2 = await body(`group_by=merchant&time_period=month&${W}&min_total_amount=0`, 'u2');
    expect(u2.summary.total_spending).toBe('999.00');
    const u1 = await body(`group_by=merchant&time_period=month&${W}&min_total_amount=0`);
    expect(byName(u1.spending.by_merchant, 'Netflix', 'merchant_name').total_amount).toBe('300.00');
  });
});

describe('legacy GET /v1/users/spending', () => {
  it('same body with null cash flow, Deprecation (RFC 9745), Sunset and Link headers', async () => {
    const query = `group_by=category&time_period=month&${W}`;
    const legacy = await t.get(query, { path: '/v1/users/spending' });
    expect(legacy.statusCode).toBe(200);
    expect(legacy.headers.deprecation).toBe('@1767225600');
    expect(legacy.headers.sunset).toBe('Wed, 30 Jun 2027 23:59:59 GMT');
    expect(legacy.headers.link).toBe('</v2/users/spending>; rel="successor-version"');
    const current = await body(query);
    const old = legacy.json();
    expect([old.total_income, old.total_expenses, old.savings_rate]).toEqual([null, null, null]);
    expect(old.spending).toEqual(current.spending);
    expect(old.summary).toEqual(current.summary);
  });
});
