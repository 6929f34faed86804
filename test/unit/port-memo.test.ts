import { describe, expect, it } from 'vitest';
import { memoizedPort } from '../../src/port/memo.ts';
import type { AccountRecord, StoreAdapter, TokenOwner } from '../../src/port/read-port.ts';

const ACCOUNT: AccountRecord = {
  id: 'acc_1',
  link_id: 'lnk_1',
  name: 'Checking',
  mask: '0001',
  type: 'depository',
  subtype: 'checking',
  currency: 'USD',
};

/** An adapter whose every read fails unless the test gives it one; `reads` lists the reads. */
function adapterWith(given: Partial<StoreAdapter>): { adapter: StoreAdapter; reads: string[] } {
  const reads: string[] = [];
  const unexpected = (name: string) => () => {
    throw new Error(`${name} was not expected to be read`);
  };
  const counted = <A extends unknown[], R>(name: string, read: (...args: A) => R) => {
    return (...args: A): R => {
      reads.push(name);
      return read(...args);
    };
  };
  const fallback: StoreAdapter = {
    generation: 'g1',
    sync: { lineage: 'g1', seq: 0, logFloor: 0, generations: ['g1'], cursorKey: 'key' },
    publishedSync: unexpected('publishedSync'),
    ping: unexpected('ping'),
    close: unexpected('close'),
    liveTokenOwner: unexpected('liveTokenOwner'),
    userExists: unexpected('userExists'),
    profile: unexpected('profile'),
    accounts: unexpected('accounts'),
    transactions: unexpected('transactions'),
    transactionCount: unexpected('transactionCount'),
    transactionChunks: unexpected('transactionChunks'),
    transactionsById: unexpected('transactionsById'),
    transactionChanges: unexpected('transactionChanges'),
    userChanges: unexpected('userChanges'),
    transaction: unexpected('transaction'),
    links: unexpected('links'),
    latestBalances: unexpected('latestBalances'),
    balanceHistory: unexpected('balanceHistory'),
    payStatements: unexpected('payStatements'),
    monthlyIncome: unexpected('monthlyIncome'),
    liabilities: unexpected('liabilities'),
    spendingAggregates: unexpected('spendingAggregates'),
    recurringKeyDays: unexpected('recurringKeyDays'),
    recurringRows: unexpected('recurringRows'),
  };
  const adapter = { ...fallback };
  for (const [name, read] of Object.entries(given)) {
    (adapter as unknown as Record<string, unknown>)[name] =
      typeof read === 'function' ? counted(name, read as (...args: unknown[]) => unknown) : read;
  }
  return { adapter, reads };
}

describe('memoizedPort', () => {
  it('accepts a live token only while its user exists, asking once per user', async () => {
    const owners: Record<string, TokenOwner> = {
      'hash-a': { userId: 'usr_a', expiresAtMs: null },
      'hash-gone': { userId: 'usr_gone', expiresAtMs: 5 },
    };
    const { adapter, reads } = adapterWith({
      liveTokenOwner: async (hash) => owners[hash] ?? null,
      userExists: async (userId) => userId === 'usr_a',
    });
    const port = memoizedPort(adapter);
    expect(await port.tokenOwner('hash-a')).toEqual({ userId: 'usr_a', expiresAtMs: null });
    expect(await port.tokenOwner('hash-a')).toEqual({ userId: 'usr_a', expiresAtMs: null });
    expect(await port.tokenOwner('hash-gone')).toBeNull();
    expect(await port.tokenOwner('hash-gone')).toBeNull();
    expect(await port.tokenOwner('hash-unknown')).toBeNull();
    // The token is looked up every time (a revocation counts at once); a user found to exist
    // is not asked about again, one not found is.
    expect(reads).toEqual([
      'liveTokenOwner',
      'userExists',
      'liveTokenOwner',
      'liveTokenOwner',
      'userExists',
      'liveTokenOwner',
      'userExists',
      'liveTokenOwner',
    ]);
  });

  it('reads a user’s accounts once per port, and again after a failed read', async () => {
    let failNext = true;
    const { adapter, reads } = adapterWith({
      accounts: async () => {
        if (failNext) {
          failNext = false;
          throw new Error('store unavailable');
        }
        return [ACCOUNT];
      },
    });
    const port = memoizedPort(adapter);
    await expect(port.accounts('usr_a')).rejects.toThrow('store unavailable');
    expect(await port.accounts('usr_a')).toEqual([ACCOUNT]);
    expect(await port.accounts('usr_a')).toEqual([ACCOUNT]);
    expect(reads).toEqual(['accounts', 'accounts']);
    // Another port (another generation) reads them anew.
    expect(await memoizedPort(adapter).accounts('usr_a')).toEqual([ACCOUNT]);
    expect(reads).toEqual(['accounts', 'accounts', 'accounts']);
  });

  it('gives the balance history the accounts the port holds', async () => {
    const { adapter, reads } = adapterWith({
      accounts: async () => [ACCOUNT],
      balanceHistory: async (_userId, days, accounts) =>
        (await accounts()).flatMap((account) =>
          days.map((day) => ({
            end_date: day,
            account_id: account.id,
            type: account.type,
            current: null,
            as_of: null,
          })),
        ),
    });
    const port = memoizedPort(adapter);
    await port.accounts('usr_a');
    expect(await port.balanceHistory('usr_a', ['2026-01-31'])).toEqual([
      {
        end_date: '2026-01-31',
        account_id: 'acc_1',
        type: 'depository',
        current: null,
        as_of: null,
      },
    ]);
    expect(reads).toEqual(['accounts', 'balanceHistory']);
  });

  it('hands every other read to the adapter as it is', async () => {
    const { adapter, reads } = adapterWith({
      profile: async (userId) => ({ id: userId, name: 'A', email: 'a@example.com', phone: null }),
    });
    const port = memoizedPort(adapter);
    expect(port.generation).toBe('g1');
    expect(port.sync.cursorKey).toBe('key');
    expect(await port.profile('usr_a')).toEqual({
      id: 'usr_a',
      name: 'A',
      email: 'a@example.com',
      phone: null,
    });
    expect(reads).toEqual(['profile']);
    expect(Object.keys(port)).not.toContain('liveTokenOwner');
    expect(Object.keys(port)).not.toContain('userExists');
  });
});
