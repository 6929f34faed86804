/**
 * An engine's reads with a per-user working set: the transaction list's answers (pages,
 * filters, daily totals, the unpaginated list, lookups by id, the first sync and its pages), the
 * spending analysis's and the recurring streams' reads, the user's accounts and whether the user
 * exists, all from the user's packed ledger in memory, read from the store once per user and
 * generation (one row: the bytes build-db packed). Everything else, and every user the store
 * holds no packed ledger for (over the row bound), goes to the engine as before.
 */
import {
  type AccountRecord,
  LIST_CHUNK_ROWS,
  type StoreAdapter,
  StoreOverloadedError,
  type TransactionFilters,
  type TransactionRecord,
} from '../read-port.ts';
import { aggregateSpending } from '../spending.ts';
import { LedgerCache, type WorkingSetStats } from './cache.ts';
import { type LedgerReads, UserLedger } from './ledger.ts';
import { byId, matchingRows, pageOf, selection } from './list.ts';
import { ledgerRecurringReads, ledgerSpendingReader } from './reads.ts';

export interface WorkingSetOptions {
  /** Bytes of ledgers held at most (0: no working set). */
  maxBytes: number;
  /** A user with more transactions than this is not held: the engine answers for them. */
  maxRows: number;
}

/** The ledgers of the generations being served, shared by their ports (one per process). */
export class WorkingSet {
  readonly cache: LedgerCache<UserLedger>;

  constructor(readonly options: WorkingSetOptions) {
    this.cache = new LedgerCache(options.maxBytes, (ledger) => ledger.bytes);
  }

  stats(): WorkingSetStats {
    return this.cache.stats();
  }
}

/**
 * `port`, an engine's adapter, answering from `set`'s ledgers, read through `reads` (without a
 * set: `port` itself), under the port's memo (memo.ts), so a held user's accounts and existence come from
 * the ledger too: a user's first request in a generation reads the store once. `readable` throws
 * when the engine's store can no longer be trusted (a file damaged in place): then nothing is
 * answered from memory either.
 */
export function withWorkingSet(
  port: StoreAdapter,
  reads: LedgerReads,
  set: WorkingSet | undefined,
  readable: () => void = () => {},
): StoreAdapter {
  if (!set || set.options.maxBytes <= 0) return port;
  const own = set.cache.newPort();
  const { maxRows } = set.options;
  const ledgerOf = (userId: string) => {
    readable();
    return set.cache.get(own, userId, async () => {
      try {
        const packed = await reads.packedLedger(userId, maxRows);
        return packed === null ? null : new UserLedger(packed);
      } catch (error) {
        // A ledger the store has not the memory to read whole is not held: the engine answers
        // for the user, a chunk at a time.
        if (error instanceof StoreOverloadedError) return null;
        throw error;
      }
    });
  };
  const accountsOf = async (userId: string): Promise<AccountRecord[]> => {
    const ledger = await ledgerOf(userId);
    return ledger ? ledger.accountRecords() : port.accounts(userId);
  };
  const accountsFor = (userId: string, filters: TransactionFilters): Promise<AccountRecord[]> =>
    filters.linkId !== null ? accountsOf(userId) : Promise.resolve([]);

  return {
    ...port,
    async close() {
      set.cache.dropPort(own);
      await port.close();
    },

    // The store packs a ledger for every user it holds few enough transactions of: one read
    // tells a user exists (and readies the user's answers); others are asked of the store.
    async userExists(userId) {
      return (await ledgerOf(userId)) !== null || port.userExists(userId);
    },

    accounts: accountsOf,

    heldUsers: (limit) => set.cache.heldUsers(own, limit),

    async warm(userIds, deadline) {
      let read = 0;
      for (const userId of userIds) {
        if (Date.now() > deadline) break;
        try {
          await ledgerOf(userId);
        } catch {
          break;
        }
        read++;
      }
      return read;
    },

    async transactions(userId, filters, page) {
      const ledger = await ledgerOf(userId);
      if (!ledger) return port.transactions(userId, filters, page);
      return pageOf(ledger, selection(ledger, filters, await accountsFor(userId, filters)), page);
    },

    async transactionCount(userId, filters) {
      const ledger = await ledgerOf(userId);
      if (!ledger) return port.transactionCount(userId, filters);
      return matchingRows(selection(ledger, filters, await accountsFor(userId, filters))).length;
    },

    async *transactionChunks(userId, filters): AsyncGenerator<TransactionRecord[]> {
      const ledger = await ledgerOf(userId);
      if (!ledger) {
        yield* port.transactionChunks(userId, filters);
        return;
      }
      const rows = matchingRows(selection(ledger, filters, await accountsFor(userId, filters)));
      for (let start = 0; start < rows.length; start += LIST_CHUNK_ROWS) {
        yield Array.from(rows.subarray(start, start + LIST_CHUNK_ROWS), (row) =>
          ledger.record(row),
        );
      }
    },

    async transaction(userId, id) {
      const ledger = await ledgerOf(userId);
      if (!ledger) return port.transaction(userId, id);
      const row = ledger.find(id);
      return row < 0 ? null : ledger.record(row);
    },

    async transactionsById(userId, after, limit) {
      const ledger = await ledgerOf(userId);
      if (!ledger) return port.transactionsById(userId, after, limit);
      return byId(ledger, after, limit);
    },

    async spendingAggregates(query) {
      const ledger = await ledgerOf(query.userId);
      if (!ledger) return port.spendingAggregates(query);
      const accounts = query.linkId === null ? [] : await accountsOf(query.userId);
      return aggregateSpending(ledgerSpendingReader(ledger, accounts), query);
    },

    async recurringKeyDays(scope) {
      const ledger = await ledgerOf(scope.userId);
      if (!ledger) return port.recurringKeyDays(scope);
      const accounts = scope.linkId === null ? [] : await accountsOf(scope.userId);
      return ledgerRecurringReads(ledger, accounts).recurringKeyDays(scope);
    },

    async recurringRows(scope, texts) {
      const ledger = await ledgerOf(scope.userId);
      if (!ledger) return port.recurringRows(scope, texts);
      const accounts = scope.linkId === null ? [] : await accountsOf(scope.userId);
      return ledgerRecurringReads(ledger, accounts).recurringRows(scope, texts);
    },
  };
}
