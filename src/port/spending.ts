/**
 * The spending analysis's reads, driven once for every engine: an engine implements the few
 * reads of SpendingReader over the user's scoped rows, and aggregateSpending folds what they
 * return (domain/spending/fold.ts); an engine's port answers the area's one spending read
 * (read-port.ts, SpendingReads) with it. The scope (the user, the window, rules 1-4 of
 * domain/spending/rules.ts, link_id and account_ids) is the engine's; every other rule is the
 * fold's, so a reader returns what the rules read (direction, category, to_platform) and never
 * applies them.
 */
import type { Exact } from '../domain/money.ts';
import {
  type DayTransaction,
  type LargestCandidate,
  type MerchantAmount,
  SpendingFold,
  type SpendingGrain,
  type SpendingGroup,
  spendingGrain,
} from '../domain/spending/fold.ts';
import {
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
} from '../domain/spending/model.ts';

/** Which rows a spending query reads: the user's, in the window, on the link and accounts. */
export type SpendingScope = Pick<SpendingQuery, 'userId' | 'window' | 'linkId' | 'accountIds'>;

/** What an engine reads of the scoped rows, in any order. */
export interface SpendingReader {
  /** The scoped rows summed into groups of `grain`, each with its largest row or none with it. */
  groups(scope: SpendingScope, grain: SpendingGrain): Promise<SpendingGroup[]>;
  /**
   * Scoped rows whose amount is one of `amounts` (asked when the groups had no largest rows): at
   * least, of the rows that share a day (or a month, where `grain`'s periods are made of months)
   * and every column, the largest (fold.ts, isLarger).
   */
  largestCandidates(
    scope: SpendingScope,
    grain: SpendingGrain,
    amounts: readonly Exact[],
  ): Promise<LargestCandidate[]>;
  /** How many scoped rows have each amount, for the merchants named `names` (null: no name). */
  merchantAmounts(
    scope: SpendingScope,
    names: readonly (string | null)[],
  ): Promise<MerchantAmount[]>;
  /** Every scoped row, where the window is a single day. */
  dayTransactions(scope: SpendingScope): Promise<DayTransaction[]>;
}

/** The aggregates of `query` (shape.ts shapes them), read by `reader`. */
export async function aggregateSpending(
  reader: SpendingReader,
  query: SpendingQuery,
): Promise<SpendingAggregates> {
  const { userId, window, linkId, accountIds } = query;
  const scope: SpendingScope = { userId, window, linkId, accountIds };
  const fold = new SpendingFold(query);
  const grain = spendingGrain(query);
  const [groups, dayRows] = await Promise.all([
    reader.groups(scope, grain),
    singleDayTransactionIds(query) ? reader.dayTransactions(scope) : null,
  ]);
  for (const group of groups) fold.add(group);
  for (const row of dayRows ?? []) fold.addTransactionId(row);
  const maxima = fold.maxima();
  const names = fold.recurringMerchantNames();
  const [candidates, amounts] = await Promise.all([
    maxima.length > 0 ? reader.largestCandidates(scope, grain, maxima) : [],
    names.length > 0 ? reader.merchantAmounts(scope, names) : [],
  ]);
  for (const row of candidates) fold.offerLargest(row);
  for (const row of amounts) fold.addAmount(row);
  return fold.aggregates();
}
