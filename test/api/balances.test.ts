import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

describe('GET /v1/users/balances', () => {
  it('latest snapshot per account, nulls without one, hand-computed totals', async () => {
    const response = await fx.app.inject({ url: '/v1/users/balances', headers: fx.u1 });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const latest = (id: string) =>
      body.balances.find((b: { account_id: string }) => b.account_id === id);
    expect(body.balances.map((b: { account_id: string }) => b.account_id)).toEqual([
      'a_brk',
      'a_card',
      'a_chk',
      'a_loan',
      'a_other',
      'a_sav',
    ]);
    expect(latest('a_chk')).toEqual({
      account_id: 'a_chk',
      link_id: 'l_bank',
      name: 'Checking',
      mask: '1111',
      type: 'depository',
      subtype: 'checking',
      currency: 'USD',
      current: '1200.10',
      available: '1100.10',
      credit_limit: null,
      as_of: '2026-02-28',
    });
    expect(latest('a_card')).toMatchObject({
      current: '450.75',
      credit_limit: '5000.00',
      as_of: '2026-02-27',
    });
    expect(latest('a_other')).toMatchObject({
      current: null,
      available: null,
      credit_limit: null,
      as_of: null,
    });
    // Assets: 1200.10 + 5100.00 + 2500.00 (brokerage); liabilities: 450.75 + 9800.00.
    expect(body.totals).toEqual({
      assets: '8800.10',
      liabilities: '10250.75',
      net_worth: '-1450.65',
      as_of: '2026-02-28',
      currency: 'USD',
    });
  });
});
