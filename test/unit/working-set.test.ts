/**
 * The working set's memory (src/port/working-set/): a user's ledger is read once per port (one
 * generation) however many requests ask at once, kept within its bytes, least recently used out
 * first, never served to another port, forgotten with its port; a user over the row
 * bound is left to the engine, and a failed read is not kept.
 */
import { describe, expect, it } from 'vitest';
import type { AccountRecord, StoreAdapter } from '../../src/port/read-port.ts';
import { LedgerCache } from '../../src/port/working-set/cache.ts';
import { UserLedger } from '../../src/port/working-set/ledger.ts';
import { WorkingSet, withWorkingSet } from '../../src/port/working-set/port.ts';
import { type LedgerTestRow, packRows } from '../helpers/ledger.ts';
import { NO_FILTERS } from '../helpers/store.ts';

const row = (id: string, date: string, cents = 100): LedgerTestRow => ({ id, date, cents });

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

describe('the engine’s reads with a working set', () => {
  /** An engine whose every read says it was the engine's. */
  function engine(): StoreAdapter {
    const answer = { rows: [], total: -1, dailyTotals: [] };
    return {
      generation: 'g1',
      close: async () => {},
      transactions: async () => answer,
      transactionCount: async () => -1,
      transaction: async () => null,
      transactionsById: async () => [],
      accounts: async () => [{ id: 'from the engine' }],
      userExists: async (user: string) => user === 'large',
    } as unknown as StoreAdapter;
  }

  const ACCOUNT: AccountRecord = {
    id: 'acc_1',
    link_id: 'lnk_1',
    name: 'Checking',
    mask: '0001',
    type: 'depository',
    subtype: 'checking',
    currency: 'USD',
  };

  it('answers a held user from memory, and a user over the row bound from the engine', async () => {
    const ledgers: Record<string, LedgerTestRow[]> = {
      small: [row('t2', '2026-01-02'), row('t1', '2026-01-01')],
      large: [row('t3', '2026-01-03'), row('t2', '2026-01-02'), row('t1', '2026-01-01')],
    };
    const asked: string[] = [];
    const set = new WorkingSet({ maxBytes: 1 << 20, maxRows: 2 });
    const port = withWorkingSet(
      engine(),
      {
        packedLedger: async (user, maxRows) => {
          asked.push(user);
          const rows = ledgers[user];
          return !rows || rows.length > maxRows ? null : packRows(rows, [ACCOUNT]);
        },
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
    // The ledger says the user exists and has these accounts; without one, the engine says.
    expect(await port.userExists('small')).toBe(true);
    expect(await port.accounts('small')).toEqual([ACCOUNT]);
    expect(await port.userExists('large')).toBe(true);
    expect(await port.accounts('large')).toEqual([{ id: 'from the engine' }]);
    expect(await port.userExists('nobody')).toBe(false);
    await port.close();
    expect(set.stats().users).toBe(0);
  });

  it('holds amounts exactly, as cents', () => {
    const ledger = new UserLedger(packRows([row('t1', '2026-01-01', 4_503_599_627_370_495)]));
    expect(ledger.amount(0)).toBe('45035996273704.95');
    expect(new UserLedger(packRows([row('t1', '2026-01-01', 5)])).amount(0)).toBe('0.05');
  });
});
