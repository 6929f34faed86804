/**
 * The read port with a per-user working set: the transaction list's answers (pages, filters,
 * daily totals, the unpaginated list, lookups by id, the first sync and its pages), the spending
 * analysis's and the recurring streams' reads computed from the user's ledger in memory, read
 * from the engine once per user and generation. Everything else, and every user over the row
 * bound, goes to the engine as before.
 */
import {
  type AccountRecord,
  LIST_CHUNK_ROWS,
  type ReadPort,
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
 * `port` answering from `set`'s ledgers, read through `reads` (without a set: `port` itself).
 * `readable` throws when the engine's store can no longer be trusted (a file damaged in place):
 * then nothing is answered from memory either.
 */
export function withWorkingSet(
  port: ReadPort,
  reads: LedgerReads,
  set: WorkingSet | undefined,
  readable: () => void = () => {},
): ReadPort {
  if (!set || set.options.maxBytes <= 0) return port;
  const own = set.cache.newPort();
  const { maxRows } = set.options;
  const ledgerOf = (userId: string) => {
    readable();
    return set.cache.get(own, userId, async () => {
      try {
        const rows = await reads.ledgerRows(userId, maxRows);
        return rows === null ? null : new UserLedger(rows);
      } catch (error) {
        // A ledger the store has not the memory to read whole is not held: the engine answers
        // for the user, a chunk at a time.
        if (error instanceof StoreOverloadedError) return null;
        throw error;
      }
    });
  };
  const needsAccounts = (filters: TransactionFilters) => filters.linkId !== null;
  const accountsFor = (userId: string, filters: TransactionFilters): Promise<AccountRecord[]> =>
    needsAccounts(filters) ? port.accounts(userId) : Promise.resolve([]);

  return {
    ...port,
    async close() {
      set.cache.dropPort(own);
      await port.close();
    },

    heldUsers: (limit) => set.cache.heldUsers(own, limit),

    async warm(userIds, stop) {
      let read = 0;
      for (const userId of userIds) {
        try {
          // Read when the store has nothing else to do: warming never takes a request's turn.
          await reads.whenIdle();
          if (stop()) break;
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
      const accounts = query.linkId === null ? [] : await port.accounts(query.userId);
      return aggregateSpending(ledgerSpendingReader(ledger, accounts), query);
    },

    async recurringKeyDays(scope) {
      const ledger = await ledgerOf(scope.userId);
      if (!ledger) return port.recurringKeyDays(scope);
      const accounts = scope.linkId === null ? [] : await port.accounts(scope.userId);
      return ledgerRecurringReads(ledger, accounts).recurringKeyDays(scope);
    },

    async recurringRows(scope, texts) {
      const ledger = await ledgerOf(scope.userId);
      if (!ledger) return port.recurringRows(scope, texts);
      const accounts = scope.linkId === null ? [] : await port.accounts(scope.userId);
      return ledgerRecurringReads(ledger, accounts).recurringRows(scope, texts);
    },
  };
}
