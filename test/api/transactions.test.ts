import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

type Transaction = {
  id: string;
  transacted_at: string;
  amount: string;
  direction: string;
} & Record<string, unknown>;
type DailyTotal = { date: string; debits: string; credits: string; net: string; count: number };
type ListBody = {
  count: number;
  next: string | null;
  previous: string | null;
  transactions: Transaction[];
  accounts: { id: string }[];
  daily_totals: DailyTotal[];
};

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

async function list(url: string): Promise<ListBody> {
  const response = await fx.app.inject({ url, headers: fx.u1 });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Follows `next` until null, checking each page's daily totals against the full list's. */
async function walk(firstUrl: string, all: ListBody): Promise<Transaction[]> {
  const totalsByDay = new Map(all.daily_totals.map((total) => [total.date, total]));
  const seen: Transaction[] = [];
  let url: string | null = firstUrl;
  let pages = 0;
  while (url !== null) {
    const page = await list(url);
    expect(page.count).toBe(all.count);
    expect(page.accounts).toEqual(all.accounts);
    const days = [...new Set(page.transactions.map((tx) => tx.transacted_at))];
    expect(page.daily_totals.map((total) => total.date)).toEqual(days);
    for (const total of page.daily_totals) expect(total).toEqual(totalsByDay.get(total.date));
    seen.push(...page.transactions);
    url = page.next;
    pages++;
  }
  expect(pages).toBeLessThan(100);
  return seen;
}

describe('GET /v2/users/transactions without pagination', () => {
  it('lists every transaction of the user, newest first, then id descending', async () => {
    const body = await list('/v2/users/transactions');
    expect(body.count).toBe(159);
    expect(body.transactions).toHaveLength(159);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    const order = body.transactions.map((tx) => [tx.transacted_at, tx.id]);
    const sorted = [...order].sort((a, b) =>
      a[0] === b[0]
        ? (b[1] as string) < (a[1] as string)
          ? -1
          : 1
        : (b[0] as string) < (a[0] as string)
          ? -1
          : 1,
    );
    expect(order).toEqual(sorted);
    // Future-dated ones are listed.
    expect(body.transactions[0]?.id).toBe('d01');
  });

  it('flags hidden, internal transfers and investment-account activity, never leaks user_id', async () => {
    const body = await list('/v2/users/transactions');
    const byId = new Map(body.transactions.map((tx) => [tx.id, tx]));
    expect(byId.get('c03')).toMatchObject({
      is_hidden: true,
      is_internal_transfer: false,
      is_investment_account: false,
    });
    expect(byId.get('c04')).toMatchObject({ is_hidden: false, is_internal_transfer: true });
    expect(byId.get('c05')).toMatchObject({ is_investment_account: true, amount: '50.25' });
    expect(byId.get('c01')).toEqual({
      id: 'c01',
      external_id: 'ext-c01',
      account_id: 'a_chk',
      transacted_at: '2026-01-02',
      amount: '2250.50',
      direction: 'CREDIT',
      description: 'DEPOSIT',
      merchant_name: null,
      category: 'Income',
      subcategory: null,
      merchant_category_code: null,
      is_hidden: false,
      is_internal_transfer: false,
      is_investment_account: false,
    });
  });

  it('returns all accounts of the user with their fields', async () => {
    const body = await list('/v2/users/transactions?transacted_at_from=2030-01-01');
    expect(body.transactions).toEqual([]);
    expect(body.daily_totals).toEqual([]);
    expect(body.accounts.map((account) => account.id)).toEqual([
      'a_brk',
      'a_card',
      'a_chk',
      'a_loan',
      'a_other',
      'a_sav',
    ]);
    expect(body.accounts[1]).toEqual({
      id: 'a_card',
      link_id: 'l_card',
      name: 'Rewards card',
      mask: '4444',
      type: 'credit',
      subtype: 'credit card',
      currency: 'USD',
    });
  });

  it('filters by transacted_at_from and transacted_at_to, both inclusive', async () => {
    const body = await list(
      '/v2/users/transactions?transacted_at_from=2026-01-16&transacted_at_to=2026-01-20',
    );
    const dates = new Set(body.transactions.map((tx) => tx.transacted_at));
    expect([...dates].sort()).toEqual(
      ['2026-01-16', '2026-01-17', '2026-01-18', '2026-01-19', '2026-01-20'].filter((d) =>
        dates.has(d),
      ),
    );
    expect(dates.has('2026-01-16')).toBe(true);
    expect(dates.has('2026-01-20')).toBe(true);
    expect(body.count).toBe(body.transactions.length);
  });

  it('daily_totals: debits, credits, net = credits - debits, count (hand-computed day)', async () => {
    // 2026-01-02: credit c01 2250.50 plus the bulk debits of that day.
    const body = await list(
      '/v2/users/transactions?transacted_at_from=2026-01-02&transacted_at_to=2026-01-02',
    );
    const debits = body.transactions
      .filter((tx) => tx.direction === 'DEBIT')
      .map((tx) => Math.round(Number(tx.amount) * 100));
    const debitCents = debits.reduce((a, b) => a + b, 0);
    expect(body.daily_totals).toEqual([
      {
        date: '2026-01-02',
        debits: (debitCents / 100).toFixed(2),
        credits: '2250.50',
        net: ((225050 - debitCents) / 100).toFixed(2),
        count: body.transactions.length,
      },
    ]);
  });
});

describe('GET /v2/users/transactions pagination', () => {
  it.each([10, 37, 500])(
    'walking next with page_size=%i yields exactly the full list',
    async (size) => {
      const all = await list('/v2/users/transactions');
      const walked = await walk(`/v2/users/transactions?page_size=${size}`, all);
      expect(walked).toEqual(all.transactions);
    },
  );

  it('walking with filters keeps them on every page', async () => {
    const filter = 'transacted_at_from=2026-01-10&transacted_at_to=2026-02-10';
    const all = await list(`/v2/users/transactions?${filter}`);
    const walked = await walk(`/v2/users/transactions?${filter}&page=1&page_size=10`, all);
    expect(walked).toEqual(all.transactions);
  });

  it('next and previous carry every parameter sent, with page changed', async () => {
    const body = await list(
      '/v2/users/transactions?transacted_at_to=2026-03-01&page_size=10&page=2',
    );
    expect(body.next).toBe(
      '/v2/users/transactions?transacted_at_to=2026-03-01&page_size=10&page=3',
    );
    expect(body.previous).toBe(
      '/v2/users/transactions?transacted_at_to=2026-03-01&page_size=10&page=1',
    );
  });

  it('page alone paginates with page_size 500: one page, no links', async () => {
    const body = await list('/v2/users/transactions?page=1');
    expect(body.transactions).toHaveLength(159);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
  });

  it('a day split across pages reports the same totals on both pages', async () => {
    const all = await list('/v2/users/transactions');
    // Find a page boundary inside a day for page_size 10.
    const boundary = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].find(
      (page) =>
        all.transactions[page * 10 - 1]?.transacted_at ===
        all.transactions[page * 10]?.transacted_at,
    );
    expect(boundary).toBeDefined();
    const page = boundary as number;
    const day = all.transactions[page * 10]?.transacted_at;
    const before = await list(`/v2/users/transactions?page=${page}&page_size=10`);
    const after = await list(`/v2/users/transactions?page=${page + 1}&page_size=10`);
    const onBefore = before.daily_totals.find((total) => total.date === day);
    expect(onBefore).toBeDefined();
    expect(after.daily_totals.find((total) => total.date === day)).toEqual(onBefore);
    expect(onBefore?.count).toBe(all.transactions.filter((tx) => tx.transacted_at === day).length);
  });

  it('a page past the end is 200 with an empty list and the true count', async () => {
    const body = await list('/v2/users/transactions?page=99&page_size=10');
    expect(body).toMatchObject({ count: 159, next: null, transactions: [], daily_totals: [] });
    expect(body.previous).toBe('/v2/users/transactions?page=98&page_size=10');
    expect(body.accounts).toHaveLength(6);
    const far = await list('/v2/users/transactions?page=99999999999999999999999&page_size=10');
    expect(far).toMatchObject({ count: 159, next: null, transactions: [] });
    expect(far.previous).toBe('/v2/users/transactions?page=99999999999999999999998&page_size=10');
  });

  it.each([
    ['page=0', 'page', 'greater_than_equal', '0'],
    ['page=-1', 'page', 'greater_than_equal', '-1'],
    ['page_size=9', 'page_size', 'greater_than_equal', '9'],
    ['page_size=501', 'page_size', 'less_than_equal', '501'],
    ['page=abc', 'page', 'int_parsing', 'abc'],
  ])('%s -> 422 %s', async (query, name, type, input) => {
    const response = await fx.app.inject({
      url: `/v2/users/transactions?${query}`,
      headers: fx.u1,
    });
    expect(response.statusCode).toBe(422);
    const [error] = response.json().detail;
    expect(error).toMatchObject({ loc: ['query', name], type, input });
  });

  it('page_size bounds 10 and 500 are accepted', async () => {
    expect((await list('/v2/users/transactions?page_size=10')).transactions).toHaveLength(10);
    expect((await list('/v2/users/transactions?page_size=500')).transactions).toHaveLength(159);
  });

  it('an invalid date -> 422 on its parameter', async () => {
    const response = await fx.app.inject({
      url: '/v2/users/transactions?transacted_at_from=2026-13-01',
      headers: fx.u1,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].loc).toEqual(['query', 'transacted_at_from']);
  });
});
