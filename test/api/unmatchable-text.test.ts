/**
 * A filter value holding a NUL character matches nothing (no stored text holds one), alike on
 * every engine and whether the user is held in the working set or read from the engine: a
 * NUL-holding account id is dropped from its list, a NUL-holding link, text or id matches
 * nothing. PostgreSQL refuses such a parameter, so the port must answer without the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadPort } from '../../src/port/read-port.ts';
import { DEMO_USERS } from '../../tools/demo-data/demo.ts';
import { spendingQuery } from '../helpers/spending-query.ts';
import { buildDemoStore, NO_FILTERS, openStore } from '../helpers/store.ts';

const USER = DEMO_USERS[0] ?? '';
const WINDOW = { start: '2000-01-01', end: '2100-12-31' };

const ports: Record<string, ReadPort> = {};
beforeAll(async () => {
  const path = await buildDemoStore();
  ports['read from the engine'] = await openStore(path, { workingSet: null });
  ports['held in the working set'] = await openStore(path);
}, 120_000);
afterAll(async () => {
  for (const port of Object.values(ports)) await port.close();
});

describe.each(['read from the engine', 'held in the working set'])('a user %s', (how) => {
  const port = () => ports[how] as ReadPort;

  it('a NUL-holding link, text or id matches nothing', async () => {
    const store = port();
    const [account] = await store.accounts(USER);
    const [row] = (await store.transactions(USER, NO_FILTERS, { offset: 0, limit: 1 })).rows;
    if (!account || !row) throw new Error('the demo user has no accounts or transactions');
    for (const filters of [
      { ...NO_FILTERS, linkId: `${account.link_id}\u0000` },
      { ...NO_FILTERS, text: '\u0000' },
      { ...NO_FILTERS, text: `${row.description.slice(0, 3)}\u0000` },
      { ...NO_FILTERS, accountIds: ['\u0000'] },
    ]) {
      const page = await store.transactions(USER, filters, { offset: 0, limit: 10 });
      expect([page.total, page.rows, page.dailyTotals], JSON.stringify(filters)).toEqual([
        0,
        [],
        [],
      ]);
      expect(await store.transactionCount(USER, filters)).toBe(0);
      const chunks = [];
      for await (const chunk of store.transactionChunks(USER, filters)) chunks.push(...chunk);
      expect(chunks).toEqual([]);
    }
    expect(await store.transaction(USER, `${row.id}\u0000`)).toBeNull();
    expect(await store.transaction(USER, row.id)).not.toBeNull();
  });

  it('a NUL-holding account id beside real ones is dropped from the list', async () => {
    const store = port();
    const [account] = await store.accounts(USER);
    if (!account) throw new Error('the demo user has no accounts');
    const only = { ...NO_FILTERS, accountIds: [account.id] };
    const withNul = { ...NO_FILTERS, accountIds: [account.id, `${account.id}\u0000`] };
    const page = { offset: 0, limit: 50 };
    expect(await store.transactions(USER, withNul, page)).toEqual(
      await store.transactions(USER, only, page),
    );
    const scoped = spendingQuery({ userId: USER, window: WINDOW, accountIds: [account.id] });
    expect(
      await store.spendingAggregates({ ...scoped, accountIds: [account.id, '\u0000'] }),
    ).toEqual(await store.spendingAggregates(scoped));
  });

  it('spending and recurring streams in a NUL-holding scope are those of no transactions', async () => {
    const store = port();
    const nothing = await store.spendingAggregates(
      spendingQuery({ userId: USER, window: WINDOW, linkId: 'no such link' }),
    );
    for (const scope of [{ linkId: 'x\u0000' }, { accountIds: ['\u0000'] }]) {
      expect(
        await store.spendingAggregates(spendingQuery({ userId: USER, window: WINDOW, ...scope })),
      ).toEqual(nothing);
      const recurring = {
        userId: USER,
        through: WINDOW.end,
        accountIds: [],
        linkId: null,
        ...scope,
      };
      expect(await store.recurringKeyDays(recurring)).toEqual([]);
    }
  });
});
