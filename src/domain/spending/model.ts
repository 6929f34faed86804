/**
 * The spending analysis as the domain sees it: the query (resolved window, filters, grouping)
 * and the aggregates the fold (fold.ts) makes of an engine's groups, which shape.ts turns into
 * the analysis's figures.
 */
import type { TimePeriod, Window } from '../calendar.ts';
import type { Exact } from '../money.ts';
import type { CashFlowTotals } from './cash-flow.ts';

export const GROUP_BYS = ['category', 'merchant', 'time_period'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];
export const SECONDARY_GROUP_BYS = ['category', 'merchant'] as const;
export type SecondaryGroupBy = (typeof SECONDARY_GROUP_BYS)[number];
export type Flow = 'spending' | 'income';

export interface SpendingQuery {
  userId: string;
  window: Window;
  groupBy: GroupBy;
  timePeriod: TimePeriod;
  /** Only meaningful with group_by=time_period. */
  secondaryGroupBy: SecondaryGroupBy | null;
  linkId: string | null;
  accountIds: readonly string[];
  /** Canonical taxonomy names. */
  categories: readonly string[];
  includeIncome: boolean;
  /** Category and merchant entries below this total are left out (exact decimal text). */
  minTotalAmount: string;
}

export interface Totals {
  amount: Exact;
  count: number;
}

/** An entry's largest counted transaction (fold.ts, isLarger: the tie-break). */
export interface LargestTransaction {
  transactionId: string;
  amount: Exact;
  date: string;
  description: string;
  merchantCategoryCode: string | null;
}

/** One listed entry: a category, merchant or period (its key) of one flow. */
export interface EntryAggregate extends Totals {
  flow: Flow;
  key: string;
  largest: LargestTransaction;
  /** Merchant entries: distinct dates ascending and every amount, for is_recurring. */
  dates?: string[];
  amountsInCents?: bigint[];
  /** Single-day period entries: the counted ids, ordered. */
  transactionIds?: string[];
}

/** A lighter breakdown row; the keys it was grouped by are set, the others undefined. */
export interface BreakdownAggregate extends Totals {
  flow: Flow;
  category?: string;
  merchant?: string;
  subcategory?: string;
  period?: string;
}

export interface SpendingAggregates {
  entries: EntryAggregate[];
  breakdowns: BreakdownAggregate[];
  /** The spending side: counted DEBITs. */
  summary: { total: Exact; count: number; uniqueMerchants: number };
  cashFlow: CashFlowTotals;
}

/** The keys of a lighter breakdown. */
export type BreakdownKey = 'category' | 'merchant' | 'subcategory' | 'period';

/** Per group_by: the lighter breakdowns (time series, subcategories, summary's top names). */
export function breakdownSets(
  groupBy: GroupBy,
  secondary: SecondaryGroupBy | null,
): BreakdownKey[][] {
  switch (groupBy) {
    case 'category':
      return [['category', 'subcategory'], ['category', 'period'], ['merchant']];
    case 'merchant':
      return [['merchant', 'category'], ['merchant', 'period'], ['category']];
    case 'time_period':
      return [
        ['category'],
        ['merchant'],
        ...(secondary ? [['period', secondary] as BreakdownKey[]] : []),
      ];
  }
}

/** Bucket names shared by missing values and real values of the same name. */
export const UNKNOWN_MERCHANT = 'Unknown';
export const UNCATEGORIZED = 'Uncategorized';

/** transaction_ids are listed only for one day grouped by day (docs/api.md). */
export function singleDayTransactionIds(query: SpendingQuery): boolean {
  return (
    query.groupBy === 'time_period' &&
    query.timePeriod === 'day' &&
    query.window.start === query.window.end
  );
}
