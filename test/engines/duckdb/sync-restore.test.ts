/**
 * A restore and the sync feed: a cursor names the generation of each change set it stands at,
 * so a store whose history went another way (a copy of an earlier generation published again,
 * then new change sets) answers 410 to a cursor issued after the restored point, and syncs on
 * from a cursor issued at or before it.
 */
import { copyFile, rename } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_GONE } from '../../../src/http/errors.ts';
import { type ChangingStore, openChangingStore } from '../../helpers/changing-store.ts';

const USER = 'usr_a';

const transaction = (id: string, day: number, amount: string) => ({
  id,
  user_id: USER,
  account_id: 'acc_a',
  transacted_at: `2026-10-${String(day).padStart(2, '0')}`,
  amount,
  direction: 'DEBIT',
  description: `PURCHASE ${id}`,
  category: 'Food and Drink',
});

let store: ChangingStore;

beforeAll(async () => {
  store = await openChangingStore({
    users: [{ id: USER, name: 'A', email: 'a@example.com', created_at: '2025-01-01T00:00:00Z' }],
    links: [
      {
        id: 'lnk_a',
        user_id: USER,
        type: 'institution',
        name: 'Bank',
        status: 'active',
        created_at: '2025-01-01T00:00:00Z',
      },
    ],
    accounts: [
      { id: 'acc_a', user_id: USER, link_id: 'lnk_a', name: 'Checking', type: 'depository' },
    ],
    transactions: [transaction('txn_1', 1, '10.00'), transaction('txn_2', 2, '20.00')],
  });
}, 120_000);
afterAll(() => store?.close());

interface SyncBody {
  added: { id: string; amount: string }[];
  modified: { id: string; amount: string }[];
  removed: { id: string }[];
  next_cursor: string;
}

async function sync(cursor: string | null) {
  const query = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
  return store.app.inject({
    url: `/v2/users/transactions/sync${query}`,
    headers: store.headers(USER),
  });
}

async function cursorNow(): Promise<string> {
  const response = await sync(null);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as SyncBody).next_cursor;
}

/** Publishes a copy of the store file over it, as an operator's restore does, and serves it. */
async function publishCopy(copy: string): Promise<void> {
  const staged = `${store.target}.restore`;
  await copyFile(copy, staged);
  await rename(staged, store.target);
  expect(await store.store.reload('restored')).toBe('swapped');
}

describe('a restored store and the sync feed', () => {
  it('answers 410 to a cursor past the restored point, and syncs on from one before it', async () => {
    await store.apply({ upserts: { transactions: [transaction('txn_3', 3, '30.00')] } });
    const atRestorePoint = await cursorNow();
    const copy = `${store.target}.copy`;
    await copyFile(store.target, copy);
    await store.apply({ upserts: { transactions: [transaction('txn_4', 4, '40.00')] } });
    // The client now holds txn_4.
    const pastIt = await cursorNow();

    await publishCopy(copy);
    // The restored store is behind the cursor and publishes nothing newer: start again.
    const behind = await sync(pastIt);
    expect(behind.statusCode).toBe(410);
    expect(behind.json()).toEqual({ detail: SYNC_GONE });

    // Another change set on the restored store: same change set number, another generation.
    await store.apply({ upserts: { transactions: [transaction('txn_5', 5, '50.00')] } });
    const diverged = await sync(pastIt);
    expect(diverged.statusCode).toBe(410);
    expect(diverged.json()).toEqual({ detail: SYNC_GONE });

    // A cursor from before the restored point goes on: txn_5 is new to it, txn_4 never was.
    const fromBefore = await sync(atRestorePoint);
    expect(fromBefore.statusCode, fromBefore.body).toBe(200);
    const body = fromBefore.json() as SyncBody;
    expect(body.added.map((row) => row.id)).toEqual(['txn_5']);
    expect([body.modified, body.removed]).toEqual([[], []]);

    // Starting over gives exactly what the store holds.
    const fresh = await sync(null);
    expect((fresh.json() as SyncBody).added.map((row) => row.id)).toEqual([
      'txn_1',
      'txn_2',
      'txn_3',
      'txn_5',
    ]);
  }, 120_000);
});
