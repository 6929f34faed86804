import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FinanceFixture,
  OTHER_USER_PREFIX,
  openFinanceFixture,
} from '../fixtures/api/finance.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

/** Every URL of these endpoints, with filters that name the other user's ids and dates. */
const URLS = [
  '/v2/users/transactions',
  '/v2/users/transactions?transacted_at_from=2000-01-01&transacted_at_to=2100-01-01',
  '/v2/users/transactions?page=1&page_size=10&account_id=zz_a_chk&link_id=zz_l_bank&user_id=zz_u2',
  '/v2/users/transactions?page=16&page_size=10',
  '/v1/links',
  '/v1/links?page=1&page_size=10&user_id=zz_u2',
  '/v1/users/balances?account_id=zz_a_chk',
  '/v1/users/balance-history?start_date=2026-01-01&time_period=day',
  '/v1/users/balance-history?start_date=2025-06-01&time_period=week&account_ids=zz_a_chk',
  '/v1/users/income?start_date=2025-01-01&link_id=zz_l_pay',
  '/v1/users/liabilities?account_id=zz_a_card',
];

describe("no response ever holds another user's data", () => {
  it.each(URLS)('%s', async (url) => {
    const response = await fx.app.inject({ url, headers: fx.u1 });
    expect(response.statusCode, response.body).toBe(200);
    // next/previous echo the caller's own query parameters: only the data must be clean.
    const { next: _next, previous: _previous, ...data } = response.json();
    const text = JSON.stringify(data);
    expect(text).not.toContain(OTHER_USER_PREFIX);
    // The other user's figures (balances, pay) are distinctive too.
    expect(text).not.toMatch(/77777\.77|333\.33|9999\.00|7777\.00/);
  });

  it('the other user sees only its own rows', async () => {
    const transactions = (
      await fx.app.inject({ url: '/v2/users/transactions', headers: fx.u2 })
    ).json();
    expect(transactions.count).toBe(40);
    expect(
      transactions.transactions.every((tx: { id: string }) => tx.id.startsWith(OTHER_USER_PREFIX)),
    ).toBe(true);
    expect(transactions.accounts.map((a: { id: string }) => a.id)).toEqual([
      'zz_a_card',
      'zz_a_chk',
    ]);
    const balances = (await fx.app.inject({ url: '/v1/users/balances', headers: fx.u2 })).json();
    expect(balances.totals).toEqual({
      assets: '77777.77',
      liabilities: '333.33',
      net_worth: '77444.44',
      as_of: '2026-03-01',
      currency: 'USD',
    });
    const links = (await fx.app.inject({ url: '/v1/links', headers: fx.u2 })).json();
    expect(links.links.map((l: { id: string }) => l.id)).toEqual(['zz_l_bank', 'zz_l_pay']);
  });

  it.each(URLS)('%s without a token -> 401', async (url) => {
    const response = await fx.app.inject({ url });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Not authenticated' });
  });
});
