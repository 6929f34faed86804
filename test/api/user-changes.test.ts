/**
 * What change sets changed for many users at once (the port's userChanges, read by the event
 * streams), on the engine of this test run, over change sets applied with build-db's own code:
 * each user's transactions counted as the sync feed counts them, and the other tables of the
 * user's that a change set changed, whichever way (an upsert, a removal, a row of an account);
 * nothing for an upsert equal to the stored row, nothing for a user the range did not touch;
 * the same for thousands of users asked about as for a few.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadPort, UserChange } from '../../src/port/read-port.ts';
import { type ChangingStore, openChangingStore } from '../helpers/changing-store.ts';
import type { FixtureRow } from '../helpers/store.ts';

const CREATED = '2025-01-01 00:00:00';
const USERS = ['u1', 'u2', 'u3'];

const link = (id: string, user: string, type = 'institution'): FixtureRow => ({
  id,
  user_id: user,
  type,
  name: type === 'payroll' ? 'Payroll Co' : 'Bank',
  status: 'active',
  created_at: CREATED,
});
const account = (id: string, user: string, linkId: string, type = 'depository'): FixtureRow => ({
  id,
  user_id: user,
  link_id: linkId,
  name: type === 'credit' ? 'Card' : 'Checking',
  type,
});
const transaction = (id: string, user: string, accountId: string, amount = '12.00') => ({
  id,
  user_id: user,
  account_id: accountId,
  transacted_at: '2026-11-02',
  amount,
  direction: 'DEBIT',
  description: `SHOP ${id}`,
  category: 'General Merchandise',
});

/** Each user's changes, by user, with the tables sorted (the port names them in any order). */
async function changes(port: ReadPort, from: number, to: number, users = USERS) {
  const found = await port.userChanges(users, from, to);
  return Object.fromEntries(
    found
      .map((change): [string, Omit<UserChange, 'userId'>] => [
        change.userId,
        {
          added: change.added,
          modified: change.modified,
          removed: change.removed,
          tables: [...change.tables].sort(),
        },
      ])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** The counts the sync feed gives between two change sets. */
async function syncCounts(port: ReadPort, user: string, from: number, to: number) {
  const found = await port.transactionChanges(user, { from, to, after: null, limit: null });
  return {
    added: found.filter((change) => change.before === null).length,
    modified: found.filter((change) => change.before !== null && change.after !== null).length,
    removed: found.filter((change) => change.after === null).length,
  };
}

describe('userChanges: what change sets changed, for many users in one read', () => {
  let store: ChangingStore;

  beforeAll(async () => {
    store = await openChangingStore({
      users: USERS.map((id) => ({ id, name: id, email: `${id}@example.com`, created_at: CREATED })),
      links: [link('l1', 'u1'), link('l1p', 'u1', 'payroll'), link('l2', 'u2'), link('l3', 'u3')],
      accounts: [
        account('a1', 'u1', 'l1'),
        account('c1', 'u1', 'l1', 'credit'),
        account('a2', 'u2', 'l2'),
        account('c2', 'u2', 'l2', 'credit'),
        account('a3', 'u3', 'l3'),
      ],
      balances: ['a1', 'c1', 'a2', 'c2'].map((id) => ({
        account_id: id,
        as_of: '2026-11-01',
        current: '100.00',
      })),
      liabilities: [
        { account_id: 'c1', kind: 'credit_card', apr: '19.99' },
        { account_id: 'c2', kind: 'credit_card', apr: '21.50' },
      ],
      pay_statements: [
        {
          id: 'p1',
          user_id: 'u1',
          link_id: 'l1p',
          employer: 'Acme',
          pay_date: '2026-10-31',
          gross_pay: '3000.00',
          net_pay: '2200.00',
        },
      ],
      transactions: [
        transaction('t1', 'u1', 'a1'),
        transaction('t2', 'u2', 'a2'),
        transaction('t3', 'u3', 'a3'),
      ],
    });
    // 1: a balance snapshot of u1's.
    await store.apply({
      upserts: { balances: [{ account_id: 'a1', as_of: '2026-11-02', current: '90.00' }] },
    });
    // 2: u2's link upserted as it is (no change), u2's card's APR, a transaction of u3's.
    await store.apply({
      upserts: {
        links: [link('l2', 'u2')],
        liabilities: [{ account_id: 'c2', kind: 'credit_card', apr: '22.50' }],
        transactions: [transaction('t4', 'u3', 'a3')],
      },
    });
    // 3: u1's account renamed, its pay statement and u2's transaction removed, u1's modified.
    await store.apply({
      upserts: {
        accounts: [{ ...account('a1', 'u1', 'l1'), name: 'Everyday' }],
        transactions: [transaction('t1', 'u1', 'a1', '13.00')],
      },
      deletes: { pay_statements: [{ id: 'p1' }], transactions: [{ id: 't2' }] },
    });
    // 4: u3's transaction moves to u1.
    await store.apply({ upserts: { transactions: [transaction('t3', 'u1', 'a1')] } });
  }, 180_000);

  afterAll(async () => {
    await store?.close();
  });

  it('names each change set’s users, with their transactions’ counts and other tables', async () => {
    const port = store.store.current;
    expect(port.sync.seq).toBe(4);
    const none = { added: 0, modified: 0, removed: 0 };
    expect(await changes(port, 0, 1)).toEqual({ u1: { ...none, tables: ['balances'] } });
    expect(await changes(port, 1, 2)).toEqual({
      u2: { ...none, tables: ['liabilities'] },
      u3: { ...none, added: 1, tables: [] },
    });
    expect(await changes(port, 2, 3)).toEqual({
      u1: { ...none, modified: 1, tables: ['accounts', 'pay_statements'] },
      u2: { ...none, removed: 1, tables: [] },
    });
    expect(await changes(port, 3, 4)).toEqual({
      u1: { ...none, added: 1, tables: [] },
      u3: { ...none, removed: 1, tables: [] },
    });
  });

  it('over several change sets: the net change of the transactions, every table changed', async () => {
    const port = store.store.current;
    expect(await changes(port, 0, 4)).toEqual({
      u1: { added: 1, modified: 1, removed: 0, tables: ['accounts', 'balances', 'pay_statements'] },
      u2: { added: 0, modified: 0, removed: 1, tables: ['liabilities'] },
      u3: { added: 1, modified: 0, removed: 1, tables: [] },
    });
    for (const [from, to] of [
      [0, 4],
      [1, 3],
      [2, 4],
    ] as const) {
      const found = await changes(port, from, to);
      for (const user of USERS) {
        const { added = 0, modified = 0, removed = 0 } = found[user] ?? {};
        expect({ added, modified, removed }).toEqual(await syncCounts(port, user, from, to));
      }
    }
  });

  it('reads only the users asked for, and nothing for an empty range', async () => {
    const port = store.store.current;
    expect(await changes(port, 0, 1, ['u2', 'u3', 'nobody'])).toEqual({});
    expect(await changes(port, 0, 4, ['u2'])).toEqual({
      u2: { added: 0, modified: 0, removed: 1, tables: ['liabilities'] },
    });
    expect(await changes(port, 4, 4)).toEqual({});
  });

  it('answers the same for thousands of users asked about (the cluster finds the touched first)', async () => {
    const port = store.store.current;
    const many = (users: string[]) => [
      ...Array.from({ length: 2_500 }, (_, k) => `usr_absent_${k}`),
      ...users,
    ];
    for (const [from, to] of [
      [0, 4],
      [1, 2],
      [2, 4],
    ] as const) {
      expect(await changes(port, from, to, many(USERS))).toEqual(await changes(port, from, to));
      expect(await changes(port, from, to, many(['u2']))).toEqual(
        await changes(port, from, to, ['u2']),
      );
    }
    expect(await changes(port, 0, 1, many(['u2', 'u3']))).toEqual({});
  });
});
