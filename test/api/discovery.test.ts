/**
 * What a client builds a UI from: the category taxonomy and the accounts with their latest
 * balances, against the hand-made finance fixture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { CATEGORIES } from '../../src/domain/taxonomy.ts';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';
import {
  buildStoreFromCsv,
  makeTempDir,
  mintTestToken,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

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

describe('currency of the amounts', () => {
  it('spending answers and balance totals name the user’s currency; null without accounts', async () => {
    const dir = makeTempDir('currency');
    await writeCsvFixture(dir, {
      users: [
        { id: 'eu', name: 'Eva', email: 'eva@example.com', created_at: '2024-01-01 00:00:00' },
        { id: 'none', name: 'Nia', email: 'nia@example.com', created_at: '2024-01-01 00:00:00' },
      ],
      links: [
        {
          id: 'l_eu',
          user_id: 'eu',
          type: 'institution',
          name: 'Bank',
          status: 'active',
          created_at: '2024-01-01 00:00:00',
        },
      ],
      accounts: [
        {
          id: 'a_eu',
          user_id: 'eu',
          link_id: 'l_eu',
          name: 'Giro',
          type: 'depository',
          currency: 'EUR',
        },
      ],
      transactions: [
        {
          id: 't_eu',
          user_id: 'eu',
          account_id: 'a_eu',
          transacted_at: '2026-03-01',
          amount: '12.50',
          direction: 'DEBIT',
          description: 'BAKERY',
          category: 'Food and Drink',
        },
      ],
    });
    const databasePath = await buildStoreFromCsv(dir);
    const tokens = {
      eu: await mintTestToken(databasePath, 'eu'),
      none: await mintTestToken(databasePath, 'none'),
    };
    const store = await openStore(databasePath);
    const app = await buildApp({ store, clock: createClock('2026-03-15') });
    try {
      for (const [user, currency] of [
        ['eu', 'EUR'],
        ['none', null],
      ] as const) {
        const headers = { authorization: `Bearer ${tokens[user]}` };
        const spending = await app.inject({
          url: '/v2/users/spending?group_by=category&time_period=month',
          headers,
        });
        expect(spending.json().currency).toBe(currency);
        const legacy = await app.inject({
          url: '/v1/users/spending?group_by=category&time_period=month',
          headers,
        });
        expect(legacy.json().currency).toBe(currency);
        const balances = await app.inject({ url: '/v1/users/balances', headers });
        expect(balances.json().totals.currency).toBe(currency);
      }
    } finally {
      await app.close();
      await store.close();
    }
  });
});
