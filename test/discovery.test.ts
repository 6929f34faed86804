/**
 * What a client builds a UI from: the category taxonomy and the accounts with their latest
 * balances (issue 14, "Discoverability"), against the hand-made finance fixture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../src/domain/taxonomy.ts';
import { type FinanceFixture, openFinanceFixture } from './fixtures/api/finance.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

describe('GET /v1/categories', () => {
  it('lists the taxonomy in its order, for any token', async () => {
    const response = await fx.app.inject({ url: '/v1/categories', headers: fx.u1 });
    expect(response.statusCode).toBe(200);
    expect(response.json().categories).toEqual(CATEGORIES.map((name) => ({ name })));
    expect(response.json().categories[0]).toEqual({ name: 'Income' });
  });
  it('needs a token like every API route', async () => {
    expect((await fx.app.inject({ url: '/v1/categories' })).statusCode).toBe(401);
  });
});

describe('GET /v1/accounts', () => {
  it('every account of the user by id, with its latest snapshot or balance null (hand-checked)', async () => {
    const response = await fx.app.inject({ url: '/v1/accounts', headers: fx.u1 });
    expect(response.statusCode).toBe(200);
    const accounts = response.json().accounts as Array<{ id: string; balance: unknown }>;
    expect(accounts.map((account) => account.id)).toEqual([
      'a_brk',
      'a_card',
      'a_chk',
      'a_loan',
      'a_other',
      'a_sav',
    ]);
    const byId = new Map(accounts.map((account) => [account.id, account]));
    expect(byId.get('a_chk')).toMatchObject({
      link_id: 'l_bank',
      type: 'depository',
      subtype: 'checking',
      currency: 'USD',
      balance: {
        current: '1200.10',
        available: '1100.10',
        credit_limit: null,
        as_of: '2026-02-28',
      },
    });
    expect(byId.get('a_other')?.balance).toBeNull();
  });
  it("never lists another user's accounts", async () => {
    const response = await fx.app.inject({ url: '/v1/accounts', headers: fx.u2 });
    const ids = (response.json().accounts as Array<{ id: string }>).map((account) => account.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith('zz_'))).toBe(true);
  });
});
