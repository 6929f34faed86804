/**
 * The sync feed over change sets, on the engine of this test run (a behaviour suite): following
 * the cursors from none reproduces the unpaginated list exactly, and resuming from the last
 * cursor after any change sets yields exactly their net effect (a property over random
 * sequences of change sets, applied with build-db's own code); a sync under way keeps reading
 * the generation it started on; foreign, edited and stale cursors are refused as documented;
 * every authenticated answer names its generation.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_GONE } from '../../src/http/errors.ts';
import {
  type ChangeSetFiles,
  type ChangingStore,
  openChangingStore,
} from '../helpers/changing-store.ts';
import type { FixtureRow } from '../helpers/store.ts';

type Listed = { id: string } & Record<string, unknown>;
interface SyncBody {
  added: Listed[];
  modified: Listed[];
  removed: { id: string }[];
  next_cursor: string;
  has_more: boolean;
}

const USERS = ['usr_a', 'usr_b', 'usr_c'];
const CATEGORIES = ['Food and Drink', 'General Merchandise', 'Travel', 'Income'];

/** The source rows as the model holds them: the tables' rows by key. */
interface Model {
  accounts: Map<string, FixtureRow>;
  transactions: Map<string, FixtureRow>;
  nextId: number;
}

function baseTables(): { tables: Record<string, FixtureRow[]>; model: Model } {
  const users = USERS.map((id) => ({
    id,
    name: `User ${id}`,
    email: `${id}@example.com`,
    created_at: '2025-01-01T00:00:00Z',
  }));
  const links = USERS.map((user) => ({
    id: `lnk_${user}`,
    user_id: user,
    type: 'institution',
    name: 'Bank',
    status: 'active',
    created_at: '2025-01-01T00:00:00Z',
  }));
  const accounts = USERS.flatMap((user) => [
    {
      id: `acc_${user}_chk`,
      user_id: user,
      link_id: `lnk_${user}`,
      name: 'Checking',
      type: 'depository',
    },
    {
      id: `acc_${user}_inv`,
      user_id: user,
      link_id: `lnk_${user}`,
      name: 'Brokerage',
      type: 'investment',
    },
  ]);
  const model: Model = {
    accounts: new Map(accounts.map((row) => [row.id, row])),
    transactions: new Map(),
    nextId: 0,
  };
  for (const user of USERS) {
    for (let k = 0; k < 12; k++) {
      const row = transactionRow(model, user, k, k % 3 === 0 ? 'inv' : 'chk', 1000 + k * 37, k % 4);
      model.transactions.set(String(row.id), row);
    }
  }
  return {
    tables: { users, links, accounts, transactions: [...model.transactions.values()] },
    model,
  };
}

function transactionRow(
  model: Model,
  user: string,
  day: number,
  account: 'chk' | 'inv',
  cents: number,
  category: number,
): FixtureRow {
  const id = `txn_${String(model.nextId++).padStart(5, '0')}`;
  return {
    id,
    user_id: user,
    account_id: `acc_${user}_${account}`,
    transacted_at: `2026-10-${String(1 + (day % 28)).padStart(2, '0')}`,
    amount: (cents / 100).toFixed(2),
    direction: category === 3 ? 'CREDIT' : 'DEBIT',
    description: `PURCHASE ${id}`,
    category: CATEGORIES[category] as string,
  };
}

/** One operation of a change set, drawn independently of the model and applied to it. */
type Operation =
  | {
      kind: 'add';
      user: number;
      day: number;
      account: 'chk' | 'inv';
      cents: number;
      category: number;
    }
  | { kind: 'modify'; pick: number; cents: number; category: number }
  | { kind: 'same'; pick: number }
  | { kind: 'move'; pick: number }
  | { kind: 'remove'; pick: number }
  | { kind: 'removeMissing' }
  | { kind: 'flipAccount'; user: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    user: fc.nat({ max: USERS.length - 1 }),
    day: fc.nat({ max: 27 }),
    account: fc.constantFrom('chk' as const, 'inv' as const),
    cents: fc.integer({ min: 1, max: 99_999 }),
    category: fc.nat({ max: 3 }),
  }),
  fc.record({
    kind: fc.constant('modify' as const),
    pick: fc.nat(),
    cents: fc.integer({ min: 1, max: 99_999 }),
    category: fc.nat({ max: 3 }),
  }),
  fc.record({ kind: fc.constant('same' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('removeMissing' as const) }),
  fc.record({ kind: fc.constant('flipAccount' as const), user: fc.nat({ max: USERS.length - 1 }) }),
);

const changeSet = fc.array(operation, { minLength: 1, maxLength: 8 });

/** The change set's files, with the model brought to the state they leave. */
function changeSetFiles(model: Model, operations: readonly Operation[]): ChangeSetFiles {
  const upserts = new Map<string, FixtureRow>();
  const removed = new Map<string, FixtureRow>();
  const accounts = new Map<string, FixtureRow>();
  const existing = () =>
    [...model.transactions.keys()].filter((id) => !upserts.has(id) && !removed.has(id)).sort();
  const pick = (index: number) => {
    const ids = existing();
    return ids.length === 0 ? undefined : (ids[index % ids.length] as string);
  };
  for (const op of operations) {
    if (op.kind === 'add') {
      const row = transactionRow(
        model,
        USERS[op.user] as string,
        op.day,
        op.account,
        op.cents,
        op.category,
      );
      upserts.set(String(row.id), row);
    } else if (op.kind === 'removeMissing') {
      const id = `txn_missing_${model.nextId++}`;
      removed.set(id, { id });
    } else if (op.kind === 'flipAccount') {
      const id = `acc_${USERS[op.user]}_inv`;
      const current = accounts.get(id) ?? (model.accounts.get(id) as FixtureRow);
      accounts.set(id, {
        ...current,
        type: current.type === 'investment' ? 'depository' : 'investment',
      });
    } else {
      const id = pick(op.pick);
      if (id === undefined) continue;
      const row = model.transactions.get(id) as FixtureRow;
      if (op.kind === 'remove') removed.set(id, { id });
      else if (op.kind === 'same') upserts.set(id, { ...row });
      else if (op.kind === 'move') {
        const account = String(row.account_id).endsWith('_chk') ? 'inv' : 'chk';
        upserts.set(id, { ...row, account_id: `acc_${row.user_id}_${account}` });
      } else {
        upserts.set(id, {
          ...row,
          amount: (op.cents / 100).toFixed(2),
          category: CATEGORIES[op.category] as string,
          direction: op.category === 3 ? 'CREDIT' : 'DEBIT',
        });
      }
    }
  }
  for (const [id, row] of upserts) model.transactions.set(id, row);
  for (const id of removed.keys()) model.transactions.delete(id);
  for (const [id, row] of accounts) model.accounts.set(id, row);
  return {
    upserts: {
      ...(upserts.size > 0 ? { transactions: [...upserts.values()] } : {}),
      ...(accounts.size > 0 ? { accounts: [...accounts.values()] } : {}),
    },
    deletes: removed.size > 0 ? { transactions: [...removed.values()] } : {},
  };
}

let store: ChangingStore;
let model: Model;

beforeAll(async () => {
  const base = baseTables();
  model = base.model;
  store = await openChangingStore(base.tables);
}, 240_000);
afterAll(async () => {
  await store?.close();
});

async function get(url: string, user = 'usr_a') {
  return store.app.inject({ url, headers: store.headers(user) });
}

async function syncPage(cursor: string | null, count?: number, user = 'usr_a'): Promise<SyncBody> {
  const query = new URLSearchParams();
  if (cursor !== null) query.set('cursor', cursor);
  if (count !== undefined) query.set('count', String(count));
  const response = await get(`/v2/users/transactions/sync?${query}`, user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Follows a sync to its end: every change of it, and the cursor the next one starts at. */
async function syncAll(cursor: string | null, count: number, user = 'usr_a') {
  const all = { added: [] as Listed[], modified: [] as Listed[], removed: [] as { id: string }[] };
  let next = cursor;
  let lastId = '';
  for (let pages = 0; pages < 1000; pages++) {
    const page = await syncPage(next, count, user);
    const ids = [...page.added, ...page.modified, ...page.removed].map((row) => row.id).sort();
    expect(ids.length).toBeLessThanOrEqual(count);
    if (page.has_more) expect(ids).toHaveLength(count);
    for (const id of ids) {
      expect(id > lastId, `${id} after ${lastId}`).toBe(true);
      lastId = id;
    }
    all.added.push(...page.added);
    all.modified.push(...page.modified);
    all.removed.push(...page.removed);
    next = page.next_cursor;
    if (!page.has_more) return { ...all, cursor: page.next_cursor };
  }
  throw new Error('the sync did not end');
}

async function listed(user = 'usr_a'): Promise<Map<string, Listed>> {
  const response = await get('/v2/users/transactions', user);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { transactions: Listed[] };
  return new Map(body.transactions.map((row) => [row.id, row]));
}

const byId = (rows: Listed[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));

describe('GET /v2/users/transactions/sync', () => {
  it('without a cursor, adds every transaction of the list, a page at a time, by id', async () => {
    const list = await listed();
    const first = await syncPage(null);
    expect(first.has_more).toBe(false);
    expect(first.modified).toEqual([]);
    expect(first.removed).toEqual([]);
    expect(first.added).toEqual(byId([...list.values()]));
    const paged = await syncAll(null, 5);
    expect(paged.added).toEqual(first.added);
  });

  it('after any change sets, from the last cursor, yields exactly their net effect (property)', async () => {
    const counts = fc.integer({ min: 1, max: 7 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(changeSet, { minLength: 1, maxLength: 3 }),
        counts,
        counts,
        async (sets, before, after) => {
          const user = 'usr_a';
          const then = await listed(user);
          const start = await syncAll(null, before, user);
          expect(byId(start.added)).toEqual(byId([...then.values()]));
          for (const operations of sets) await store.apply(changeSetFiles(model, operations));
          const now = await listed(user);
          const delta = await syncAll(start.cursor, after, user);
          const added = [...now.values()].filter((row) => !then.has(row.id));
          const removed = [...then.keys()].filter((id) => !now.has(id)).map((id) => ({ id }));
          const modified = [...now.values()].filter(
            (row) => then.has(row.id) && JSON.stringify(then.get(row.id)) !== JSON.stringify(row),
          );
          expect(byId(delta.added)).toEqual(byId(added));
          expect(byId(delta.modified)).toEqual(byId(modified));
          expect(delta.removed.map((row) => row.id).sort()).toEqual(
            removed.map((row) => row.id).sort(),
          );
          // Nothing more since: the next sync is empty and stays where it is.
          const again = await syncPage(delta.cursor);
          expect([again.added, again.modified, again.removed, again.has_more]).toEqual([
            [],
            [],
            [],
            false,
          ]);
        },
      ),
      { numRuns: process.env.TEST_ENGINE === 'postgres' ? 3 : 6, endOnFailure: true },
    );
  }, 600_000);

  it('keeps reading the generation a sync started on when another is published meanwhile', async () => {
    for (const start of [null, (await syncAll(null, 100)).cursor]) {
      const then = await listed();
      const thenSync = start === null ? null : await syncAll(start, 100);
      const first = await syncPage(start, 2);
      const files = changeSetFiles(model, [
        { kind: 'modify', pick: 0, cents: 4242, category: 1 },
        { kind: 'remove', pick: 3 },
        { kind: 'add', user: 0, day: 3, account: 'chk', cents: 777, category: 0 },
      ]);
      const startedOn = store.store.current.generation;
      await store.apply(files);
      if (first.has_more) {
        // A page of the sync under way names the generation it reads: the one it started on.
        const pinned = await get(
          `/v2/users/transactions/sync?count=3&cursor=${encodeURIComponent(first.next_cursor)}`,
        );
        expect(pinned.headers['x-store-generation']).toBe(startedOn);
        expect(startedOn).not.toBe(store.store.current.generation);
      }
      const rest = await syncAll(first.next_cursor, 3);
      if (start === null) {
        expect(byId([...first.added, ...rest.added])).toEqual(byId([...then.values()]));
      } else {
        // The same sync from the same cursor, all of it read before the change set.
        expect(byId([...first.added, ...rest.added])).toEqual(byId(thenSync?.added ?? []));
        expect(byId([...first.modified, ...rest.modified])).toEqual(byId(thenSync?.modified ?? []));
      }
      // The change set published meanwhile comes with the next sync.
      const next = await syncAll(rest.cursor, 100);
      expect(next.added.length + next.modified.length + next.removed.length).toBeGreaterThan(0);
    }
  }, 240_000);

  it('a change set that changes nothing publishes nothing: the generation and cursors stay', async () => {
    const files = changeSetFiles(model, [
      { kind: 'modify', pick: 1, cents: 3131, category: 2 },
      { kind: 'add', user: 0, day: 9, account: 'chk', cents: 2468, category: 1 },
      { kind: 'remove', pick: 2 },
      { kind: 'flipAccount', user: 0 },
    ]);
    expect(await store.apply(files)).toBe(true);
    const published = store.store.current.generation;
    const { cursor } = await syncAll(null, 100);
    // The same change set again; unchanged rows and removals of keys the store does not hold.
    expect(await store.apply(files)).toBe(false);
    const unchanged = changeSetFiles(model, [
      { kind: 'same', pick: 0 },
      { kind: 'same', pick: 5 },
      { kind: 'removeMissing' },
    ]);
    expect(await store.apply(unchanged)).toBe(false);
    // Nothing new was published where servers look, and the cursor sees nothing new.
    expect(await store.store.reload('test: after change sets that change nothing')).toBe(
      'unchanged',
    );
    expect(store.store.current.generation).toBe(published);
    const page = await syncPage(cursor);
    expect(page).toEqual({
      added: [],
      modified: [],
      removed: [],
      next_cursor: cursor,
      has_more: false,
    });
    expect((await get('/v2/users/transactions')).headers['x-store-generation']).toBe(published);
  }, 240_000);

  it('answers 422 on a cursor that is not ours: edited, truncated, another user’s', async () => {
    const { next_cursor: cursor } = await syncPage(null);
    const other = (await syncPage(null, undefined, 'usr_b')).next_cursor;
    const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    for (const bad of [flipped, cursor.slice(0, -3), `${cursor}x`, 'not-a-cursor', other]) {
      const response = await get(`/v2/users/transactions/sync?cursor=${encodeURIComponent(bad)}`);
      expect(response.statusCode, bad).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['query', 'cursor'],
            msg: 'Value error, invalid cursor',
            input: bad,
            ctx: { error: {} },
          },
        ],
      });
    }
  });

  it('validates count: 1 to 500, 100 by default', async () => {
    for (const count of ['0', '501', 'x']) {
      const response = await get(`/v2/users/transactions/sync?count=${count}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0].loc).toEqual(['query', 'count']);
    }
    const body = await syncPage(null, 500);
    expect(body.has_more).toBe(false);
  });

  it('answers 410 for a cursor older than the kept change log, then works again from none', async () => {
    const { cursor } = await syncAll(null, 100);
    await store.apply(
      changeSetFiles(model, [
        { kind: 'add', user: 0, day: 5, account: 'chk', cents: 1234, category: 0 },
      ]),
      { changeSets: 1 },
    );
    // The change log still covers the last change set: the cursor from before it works.
    expect(
      (await get(`/v2/users/transactions/sync?cursor=${encodeURIComponent(cursor)}`)).statusCode,
    ).toBe(200);
    await store.apply(
      changeSetFiles(model, [
        { kind: 'add', user: 0, day: 6, account: 'chk', cents: 4321, category: 0 },
      ]),
      { changeSets: 1 },
    );
    const gone = await get(`/v2/users/transactions/sync?cursor=${encodeURIComponent(cursor)}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toEqual({ detail: SYNC_GONE });
    const fresh = await syncAll(null, 100);
    expect(byId(fresh.added)).toEqual(byId([...(await listed()).values()]));
  }, 240_000);

  it('never shows another user’s rows, and names the generation of every authenticated answer', async () => {
    const body = await syncPage(null, 500, 'usr_b');
    expect(body.added.length).toBeGreaterThan(0);
    const own = await listed('usr_b');
    for (const row of body.added) expect(own.has(row.id)).toBe(true);
    for (const url of [
      '/v2/users/transactions/sync',
      '/v2/users/transactions',
      '/v1/user',
      '/v2/users/transactions/nope',
    ]) {
      const response = await get(url);
      expect(response.headers['x-store-generation'], url).toBe(store.store.current.generation);
    }
    expect(
      (await store.app.inject({ url: '/v1/user' })).headers['x-store-generation'],
    ).toBeUndefined();
  });

  it('changes its ETag with the generation', async () => {
    const before = await get('/v2/users/transactions');
    const etag = before.headers.etag as string;
    expect(
      (
        await store.app.inject({
          url: '/v2/users/transactions',
          headers: { ...store.headers('usr_a'), 'if-none-match': etag },
        })
      ).statusCode,
    ).toBe(304);
    await store.apply(
      changeSetFiles(model, [
        { kind: 'add', user: 1, day: 7, account: 'chk', cents: 99, category: 0 },
      ]),
    );
    const after = await get('/v2/users/transactions');
    expect(after.headers.etag).not.toBe(etag);
    expect(after.headers['x-store-generation']).not.toBe(before.headers['x-store-generation']);
  }, 120_000);
});
