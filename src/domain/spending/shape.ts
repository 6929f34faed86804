/**
 * Pure shaping of the query's aggregates into the analysis's figures (docs/api.md, "Grouping",
 * "include_income", "Figures"): exact totals, quotients left unevaluated (Ratio) until the
 * area writes them, dates, the ranked lists. No I/O and no wire format: areas/spending/ writes
 * the body.
 */

import {
  clippedPeriod,
  daysIn,
  lastTwoPeriods,
  periodKey,
  previousKey,
  type TimePeriod,
} from '../calendar.ts';
import {
  byAmountThenName,
  changeFrom,
  compareCodePoints,
  DAYS_PER_MONTH,
  type Exact,
  exact,
  type Figure,
  ratio,
  shareOf,
  ZERO,
} from '../money.ts';
import { type CashFlow, cashFlowOf } from './cash-flow.ts';
import {
  type BreakdownAggregate,
  type EntryAggregate,
  type Flow,
  type LargestTransaction,
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
  type Totals,
  UNKNOWN_MERCHANT,
} from './model.ts';
import { isRecurring } from './recurring.ts';

/** Breakdown items ranked per period before the rest is folded into one `Other`. */
const BREAKDOWN_TOP = 10;
const OTHER = 'Other';

const FLOWS: readonly Flow[] = ['spending', 'income'];

/** What every listed entry (category, merchant or period) shows. */
export interface EntryFigures {
  totalAmount: Exact;
  transactionCount: number;
  averageTransaction: Figure;
  /** Share of its flow's total, in percent. */
  percentageOfTotal: Figure;
  largestTransaction: LargestTransaction;
  /** Change from the previous period, in percent; null without a non-zero one. */
  trend: Figure | null;
  flow: Flow;
}

/** An entry's total in one calendar period, clipped to the window. */
export interface PeriodTotal {
  startDate: string;
  endDate: string;
  amount: Exact;
  count: number;
}

interface CategorySpending extends EntryFigures {
  category: string;
  subcategories: { name: string; amount: Exact; count: number }[];
  timeSeries: PeriodTotal[];
}

interface MerchantSpending extends EntryFigures {
  merchantName: string;
  /** The merchant's category with the largest total. */
  category: string;
  isRecurring: boolean;
  timeSeries: PeriodTotal[];
}

interface PeriodSpending extends EntryFigures {
  timePeriod: TimePeriod;
  startDate: string;
  endDate: string;
  /** The counted ids, only for a single day grouped by day. */
  transactionIds: string[] | null;
}

interface BreakdownItem {
  name: string;
  amount: Exact;
  transactionCount: number;
  /** Share of the period's total, in percent. */
  percentage: Figure;
}

/** A period of the spending with its top names (secondary_group_by). */
interface EnrichedPeriod {
  startDate: string;
  endDate: string;
  totalAmount: Exact;
  transactionCount: number;
  percentageOfTotal: Figure;
  trend: Figure | null;
  breakdown: BreakdownItem[];
}

interface SpendingSummary {
  totalSpending: Exact;
  averageDailySpending: Figure;
  averageMonthlySpending: Figure;
  totalTransactions: number;
  uniqueMerchants: number;
  topCategory: string;
  topMerchant: string;
}

/** The analysis: the entries of the query's grouping (the two others null), and its totals. */
export interface SpendingAnalysis {
  byCategory: CategorySpending[] | null;
  byMerchant: MerchantSpending[] | null;
  byTimePeriod: PeriodSpending[] | null;
  summary: SpendingSummary;
  /** Grouped by period with a secondary grouping: each period's breakdown. */
  enrichedPeriods: EnrichedPeriod[] | null;
  cashFlow: CashFlow;
}

function sumOf(items: readonly Totals[]): Exact {
  return items.reduce((total, item) => total.plus(item.amount), ZERO);
}

function entryFigures(entry: EntryAggregate, flowTotal: Exact, trend: Figure | null): EntryFigures {
  return {
    totalAmount: entry.amount,
    transactionCount: entry.count,
    averageTransaction: ratio(entry.amount, entry.count),
    percentageOfTotal: shareOf(entry.amount, flowTotal),
    largestTransaction: entry.largest,
    trend,
    flow: entry.flow,
  };
}

/** The name with the largest total (ties: code point order), or "" when there is none. */
function topName(totals: ReadonlyMap<string, Exact>, exclude?: string): string {
  let best: [string, Exact] | undefined;
  for (const [name, amount] of totals) {
    if (name === exclude) continue;
    if (
      !best ||
      amount.gt(best[1]) ||
      (amount.eq(best[1]) && compareCodePoints(name, best[0]) < 0)
    ) {
      best = [name, amount];
    }
  }
  return best?.[0] ?? '';
}

/** Indexes rows by a string key into lists. */
function groupRows<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

export function shapeSpendingAnalysis(
  query: SpendingQuery,
  aggregates: SpendingAggregates,
): SpendingAnalysis {
  const { window, timePeriod, groupBy } = query;
  const minTotalAmount = exact(query.minTotalAmount);
  const entriesOf = (flow: Flow) => aggregates.entries.filter((entry) => entry.flow === flow);
  const flowTotals = new Map(FLOWS.map((flow) => [flow, sumOf(entriesOf(flow))]));
  const breakdownsOf = (flow: Flow, has: (row: BreakdownAggregate) => boolean) =>
    aggregates.breakdowns.filter((row) => row.flow === flow && has(row));

  /** Per entry key, its (flow, key, period) breakdown rows: time series and trend. */
  const entryKeyOf = (row: BreakdownAggregate) =>
    `${row.flow}\u0000${(groupBy === 'category' ? row.category : row.merchant) ?? ''}`;
  const periodRows = groupRows(
    aggregates.breakdowns.filter(
      (row) =>
        row.period !== undefined &&
        row.subcategory === undefined &&
        (groupBy === 'category' ? row.category !== undefined : row.merchant !== undefined),
    ),
    entryKeyOf,
  );
  const { last, beforeLast } = lastTwoPeriods(window, timePeriod);

  function timeSeries(entry: EntryAggregate): PeriodTotal[] {
    const rows = periodRows.get(`${entry.flow}\u0000${entry.key}`) ?? [];
    return rows
      .map((row) => ({ period: clippedPeriod(row.period as string, timePeriod, window), row }))
      .sort((a, b) => (a.period.key < b.period.key ? -1 : 1))
      .map(({ period, row }) => ({
        startDate: period.start,
        endDate: period.end,
        amount: row.amount,
        count: row.count,
      }));
  }

  /** Category/merchant trend: the window's last calendar period against the one before. */
  function lastPeriodTrend(entry: EntryAggregate): Figure | null {
    if (beforeLast === null) return null;
    const rows = periodRows.get(`${entry.flow}\u0000${entry.key}`) ?? [];
    const amountIn = (key: string) => rows.find((row) => row.period === key)?.amount ?? ZERO;
    return changeFrom(amountIn(last), amountIn(beforeLast));
  }

  const listed = (flow: Flow) =>
    entriesOf(flow)
      .filter((entry) => !entry.amount.lt(minTotalAmount))
      .sort(
        byAmountThenName(
          (entry) => entry.amount,
          (entry) => entry.key,
        ),
      );

  function categoryEntries(): CategorySpending[] {
    const subcategoryRows = groupRows(
      aggregates.breakdowns.filter((row) => row.subcategory !== undefined),
      entryKeyOf,
    );
    return FLOWS.flatMap((flow) =>
      listed(flow).map((entry) => ({
        category: entry.key,
        ...entryFigures(entry, flowTotals.get(flow) as Exact, lastPeriodTrend(entry)),
        subcategories: (subcategoryRows.get(`${flow}\u0000${entry.key}`) ?? [])
          .sort(
            byAmountThenName(
              (row) => row.amount,
              (row) => row.subcategory as string,
            ),
          )
          .map((row) => ({
            name: row.subcategory as string,
            amount: row.amount,
            count: row.count,
          })),
        timeSeries: timeSeries(entry),
      })),
    );
  }

  function merchantEntries(): MerchantSpending[] {
    const categoryRows = groupRows(
      aggregates.breakdowns.filter(
        (row) => row.merchant !== undefined && row.category !== undefined,
      ),
      entryKeyOf,
    );
    return FLOWS.flatMap((flow) =>
      listed(flow).map((entry) => {
        const categories = categoryRows.get(`${flow}\u0000${entry.key}`) ?? [];
        return {
          merchantName: entry.key,
          category: topName(new Map(categories.map((row) => [row.category as string, row.amount]))),
          ...entryFigures(entry, flowTotals.get(flow) as Exact, lastPeriodTrend(entry)),
          isRecurring: isRecurring(entry.dates ?? [], entry.amountsInCents ?? []),
          timeSeries: timeSeries(entry),
        };
      }),
    );
  }

  const firstPeriod = periodKey(window.start, timePeriod);
  /** Period trend: against the calendar period just before, counted inside the window. */
  function periodTrend(key: string, amountOf: (key: string) => Exact | undefined): Figure | null {
    if (key === firstPeriod) return null;
    return changeFrom(amountOf(key) ?? ZERO, amountOf(previousKey(key, timePeriod)) ?? ZERO);
  }

  const withIds = singleDayTransactionIds(query);
  function periodEntries(): PeriodSpending[] {
    return FLOWS.flatMap((flow) => {
      const entries = entriesOf(flow).sort((a, b) => (a.key < b.key ? -1 : 1));
      const amounts = new Map(entries.map((entry) => [entry.key, entry.amount]));
      return entries.map((entry) => {
        const period = clippedPeriod(entry.key, timePeriod, window);
        return {
          timePeriod,
          startDate: period.start,
          endDate: period.end,
          ...entryFigures(
            entry,
            flowTotals.get(flow) as Exact,
            periodTrend(entry.key, (key) => amounts.get(key)),
          ),
          transactionIds: withIds ? (entry.transactionIds ?? []) : null,
        };
      });
    });
  }

  function enrichedPeriods(secondary: 'category' | 'merchant'): EnrichedPeriod[] {
    const spendingTotal = flowTotals.get('spending') as Exact;
    const periods = entriesOf('spending').sort((a, b) => (a.key < b.key ? -1 : 1));
    const amounts = new Map(periods.map((entry) => [entry.key, entry.amount]));
    const itemsByPeriod = groupRows(
      breakdownsOf('spending', (row) => row.period !== undefined && row[secondary] !== undefined),
      (row) => row.period as string,
    );
    return periods.map((entry) => {
      const period = clippedPeriod(entry.key, timePeriod, window);
      const items = (itemsByPeriod.get(entry.key) ?? []).map((row) => ({
        name: row[secondary] as string,
        amount: row.amount,
        count: row.count,
      }));
      return {
        startDate: period.start,
        endDate: period.end,
        totalAmount: entry.amount,
        transactionCount: entry.count,
        percentageOfTotal: shareOf(entry.amount, spendingTotal),
        trend: periodTrend(entry.key, (key) => amounts.get(key)),
        breakdown: breakdown(items, entry.amount),
      };
    });
  }

  function summary(): SpendingSummary {
    const { total, count, uniqueMerchants } = aggregates.summary;
    const totalsBy = (dimension: 'category' | 'merchant'): Map<string, Exact> =>
      groupBy === dimension
        ? new Map(entriesOf('spending').map((entry) => [entry.key, entry.amount]))
        : new Map(
            breakdownsOf(
              'spending',
              (row) =>
                row[dimension] !== undefined &&
                row.period === undefined &&
                row.subcategory === undefined &&
                row[dimension === 'category' ? 'merchant' : 'category'] === undefined,
            ).map((row) => [row[dimension] as string, row.amount]),
          );
    // Multiplied before dividing: total x 30.4375 / days, rounded once, exactly.
    const days = daysIn(window);
    return {
      totalSpending: total,
      averageDailySpending: ratio(total, days),
      averageMonthlySpending: ratio(total.times(DAYS_PER_MONTH), days),
      totalTransactions: count,
      uniqueMerchants,
      topCategory: topName(totalsBy('category')),
      topMerchant: topName(totalsBy('merchant'), UNKNOWN_MERCHANT),
    };
  }

  return {
    byCategory: groupBy === 'category' ? categoryEntries() : null,
    byMerchant: groupBy === 'merchant' ? merchantEntries() : null,
    byTimePeriod: groupBy === 'time_period' ? periodEntries() : null,
    summary: summary(),
    enrichedPeriods:
      groupBy === 'time_period' && query.secondaryGroupBy
        ? enrichedPeriods(query.secondaryGroupBy)
        : null,
    cashFlow: cashFlowOf(aggregates.cashFlow),
  };
}

/**
 * A period's breakdown: its top names by amount (ties: code point order), then one `Other` with
 * the sum and count of the rest, when there is a rest. A real `Other` is never ranked.
 */
export function breakdown(
  items: ReadonlyArray<{ name: string; amount: Exact; count: number }>,
  periodTotal: Exact,
): BreakdownItem[] {
  const ranked = items
    .filter((item) => item.name !== OTHER)
    .sort(
      byAmountThenName(
        (item) => item.amount,
        (item) => item.name,
      ),
    );
  const top = ranked.slice(0, BREAKDOWN_TOP);
  const rest = [...ranked.slice(BREAKDOWN_TOP), ...items.filter((item) => item.name === OTHER)];
  const listed = rest.length
    ? [
        ...top,
        { name: OTHER, amount: sumOf(rest), count: rest.reduce((n, item) => n + item.count, 0) },
      ]
    : top;
  return listed.map((item) => ({
    name: item.name,
    amount: item.amount,
    transactionCount: item.count,
    percentage: shareOf(item.amount, periodTotal),
  }));
}
