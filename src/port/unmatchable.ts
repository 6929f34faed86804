/**
 * No stored text holds a NUL character: the data contract refuses one (ingest checks it), and
 * PostgreSQL's text cannot hold one. So a read whose filter names a NUL-holding value matches
 * nothing by it: an account id or a merchant text holding one is dropped from its list (a list
 * left empty matches nothing, which is not "no filter"), and a link, a text to find or a
 * transaction id holding one matches nothing at all. This answers such reads here, alike on
 * every engine, without handing the value to the engine (PostgreSQL would refuse the parameter).
 */

import type { ReadPort, TransactionFilters } from './read-port.ts';
import { aggregateSpending } from './spending.ts';

const holdsNul = (text: string) => text.includes('\u0000');

/** `ids` without the NUL-holding ones, or null when that leaves a list that matched something. */
function matchable(ids: readonly string[]): readonly string[] | null {
  if (!ids.some(holdsNul)) return ids;
  const kept = ids.filter((id) => !holdsNul(id));
  return kept.length > 0 ? kept : null;
}

/** The filters with what cannot match taken out, or null when nothing can match them. */
function matchableFilters(filters: TransactionFilters): TransactionFilters | null {
  const accountIds = matchable(filters.accountIds);
  if (accountIds === null) return null;
  if (filters.linkId !== null && holdsNul(filters.linkId)) return null;
  if (filters.text !== null && holdsNul(filters.text)) return null;
  return accountIds === filters.accountIds ? filters : { ...filters, accountIds };
}

/** A scope (spending's, recurring streams') with what cannot match taken out, or null. */
function matchableScope<T extends { linkId: string | null; accountIds: readonly string[] }>(
  scope: T,
): T | null {
  const accountIds = matchable(scope.accountIds);
  if (accountIds === null || (scope.linkId !== null && holdsNul(scope.linkId))) return null;
  return accountIds === scope.accountIds ? scope : { ...scope, accountIds };
}

const NOTHING = {
  groups: async () => [],
  largestCandidates: async () => [],
  merchantAmounts: async () => [],
  dayTransactions: async () => [],
};

export function withoutUnmatchableText(port: ReadPort): ReadPort {
  return {
    ...port,
    async transactions(userId, filters, page) {
      const kept = matchableFilters(filters);
      return kept ? port.transactions(userId, kept, page) : { rows: [], total: 0, dailyTotals: [] };
    },
    async transactionCount(userId, filters) {
      const kept = matchableFilters(filters);
      return kept ? port.transactionCount(userId, kept) : 0;
    },
    async *transactionChunks(userId, filters) {
      const kept = matchableFilters(filters);
      if (kept) yield* port.transactionChunks(userId, kept);
    },
    async transaction(userId, id) {
      return holdsNul(id) ? null : port.transaction(userId, id);
    },
    async spendingAggregates(query) {
      const kept = matchableScope(query);
      return kept ? port.spendingAggregates(kept) : aggregateSpending(NOTHING, query);
    },
    async recurringKeyDays(scope) {
      const kept = matchableScope(scope);
      return kept ? port.recurringKeyDays(kept) : [];
    },
    async recurringRows(scope, texts) {
      const kept = matchableScope(scope);
      return kept ? port.recurringRows(kept, texts) : [];
    },
  };
}
