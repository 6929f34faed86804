/**
 * The working set's memory (src/port/working-set/): a user's ledger is read once per port (one
 * generation) however many requests ask at once, kept within its bytes, least recently used out
 * first, never served to another port, forgotten with its port; a user over the row
 * bound is left to the engine, and a failed read is not kept.
 */
import { describe, expect, it } from 'vitest';
import type { ReadPort } from '../../src/port/read-port.ts';
import { LedgerCache } from '../../src/port/working-set/cache.ts';
import { type LedgerRow, UserLedger } from '../../src/port/working-set/ledger.ts';
import { WorkingSet, withWorkingSet } from '../../src/port/working-set/port.ts';
import { NO_FILTERS } from '../helpers/store.ts';

const row = (id: string, day: string, amount = '1.00'): LedgerRow => [
  id,
  null,
  'acc_1',
  day,
  amount,
  'DEBIT',
  'COFFEE',
  'Cafe',
  'Food and Drink',
  null,
  null,
  16,
];

describe('the ledger cache', () => {
  it('reads a user once per port, whoever asks meanwhile', async () => {
    const cache = new LedgerCache<string>(1000, () => 10);
    let reads = 0;
    const read = async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 'ledger';
    };
    const answers = await Promise.all([1, 2, 3].map(() => cache.get(1, 'u', read)));
    expect(answers).toEqual(['ledger', 'ledger', 'ledger']);
    expect(await cache.get(1, 'u', read)).toBe('ledger');
    expect(reads).toBe(1);
    // Another port (another generation) is read on its own.
    await cache.get(2, 'u', read);
    expect(reads).toBe(2);
    expect(cache.stats()).toMatchObject({ users: 2, hits: 1, misses: 2 });
  });

  it('keeps within its bytes, the least recently used out first', async () => {
    const cache = new LedgerCache<string>(30, () => 10);
    for (const user of ['a', 'b', 'c']) await cache.get(1, user, async () => user);
    await cache.get(1, 'a', async () => 'again');
    await cache.get(1, 'd', async () => 'd');
    expect(cache.stats()).toMatchObject({ bytes: 30, users: 3, evictions: 1 });
    // b was the least recently used: read again; a stayed.
    expect(await cache.get(1, 'a', async () => 'read a')).toBe('a');
    expect(await cache.get(1, 'b', async () => 'read b')).toBe('read b');
  });

  it('forgets a closed port, and keeps nothing read for it afterwards', async () => {
    const cache = new LedgerCache<string>(1000, () => 10);
    await cache.get(1, 'a', async () => 'a');
    let release: (value: string) => void = () => {};
    const late = cache.get(1, 'b', () => new Promise((resolve) => (release = resolve)));
    cache.dropPort(1);
    release('b');
    await late;
    expect(cache.stats()).toMatchObject({ bytes: 0, users: 0 });
  });

  it('does not keep a failed read, nor a ledger larger than its whole budget', async () => {
    const cache = new LedgerCache<string>(15, (value) => value.length);
    await expect(
      cache.get(1, 'u', async () => {
        throw new Error('store down');
      }),
    ).rejects.toThrow('store down');
    expect(await cache.get(1, 'u', async () => 'ok')).toBe('ok');
    await cache.get(1, 'big', async () => 'x'.repeat(100));
    expect(cache.stats()).toMatchObject({ users: 1, bytes: 2 });
  });
});

describe('the port with a working set', () => {
  /** A port whose every read says where it was answered. */
  function enginePort(): ReadPort {
    const answer = { rows: [], total: -1, dailyTotals: [] };
    return {
      generation: 'g1',
      close: async () => {},
      transactions: async () => answer,
      transactionCount: async () => -1,
      transaction: async () => null,
      transactionsById: async () => [],
      accounts: async () => [],
    } as unknown as ReadPort;
  }

  it('answers a held user from memory, and a user over the row bound from the engine', async () => {
    const ledgers: Record<string, LedgerRow[]> = {
      small: [row('t2', '2026-01-02'), row('t1', '2026-01-01')],
      large: [row('t3', '2026-01-03'), row('t2', '2026-01-02'), row('t1', '2026-01-01')],
    };
    const asked: string[] = [];
    const set = new WorkingSet({ maxBytes: 1 << 20, maxRows: 2 });
    const port = withWorkingSet(
      enginePort(),
      {
        ledgerRows: async (user, maxRows) => {
          asked.push(user);
          const rows = ledgers[user] ?? [];
          return rows.length > maxRows ? null : rows;
        },
        whenIdle: async () => {},
      },
      set,
    );
    const page = await port.transactions('small', NO_FILTERS, { limit: 1, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.id)).toEqual(['t2']);
    expect(await port.transactionCount('small', NO_FILTERS)).toBe(2);
    expect((await port.transaction('small', 't1'))?.transacted_at).toBe('2026-01-01');
    // Over the bound: the engine answers, and the ledger is not read again.
    expect(await port.transactionCount('large', NO_FILTERS)).toBe(-1);
    expect((await port.transactions('large', NO_FILTERS, { limit: 1, offset: 0 })).total).toBe(-1);
    expect(asked).toEqual(['small', 'large']);
    await port.close();
    expect(set.stats().users).toBe(0);
  });

  it('holds amounts exactly, as cents', () => {
    const ledger = new UserLedger([row('t1', '2026-01-01', '92233720368547.75')]);
    expect(ledger.amount(0)).toBe('92233720368547.75');
    expect(new UserLedger([row('t1', '2026-01-01', '0.05')]).amount(0)).toBe('0.05');
  });
});
