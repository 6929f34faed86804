/**
 * Pure shaping of the query's aggregates into the response body (docs/api.md, "Grouping",
 * "include_income", "Figures"). No I/O: every rule past the SQL lives here.
 */

import { clippedPeriod, daysIn, lastTwoPeriods, periodKey, previousKey } from '../calendar.ts';
import {
  byAmountThenName,
  changeFrom,
  compareCodePoints,
  DAYS_PER_MONTH,
  type Exact,
  exact,
  type Figure,
  money,
  percent,
  ratio,
  shareOf,
  ZERO,
} from '../money.ts';
import { cashFlowFields, NO_CASH_FLOW } from './cash-flow.ts';
import {
  type BreakdownAggregate,
  type EntryAggregate,
  type Flow,
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
  type Totals,
  UNKNOWN_MERCHANT,
} from './model.ts';
import { isRecurring } from './recurring.ts';

/** Breakdown items ranked per period before the rest is folded into one `Other`. */
export const BREAKDOWN_TOP = 10;
export const OTHER = 'Other';

const FLOWS: readonly Flow[] = ['spending', 'income'];

const fmt = (value: Figure | null): string | null => (value === null ? null : percent(value));

function sumOf(items: readonly Totals[]): Exact {
  return items.reduce((total, item) => total.plus(item.amount), ZERO);
}

function entryFigures(entry: EntryAggregate, flowTotal: Exact, trend: Figure | null) {
  return {
    total_amount: money(entry.amount),
    transaction_count: entry.count,
    average_transaction: money(ratio(entry.amount, entry.count)),
    percentage_of_total: percent(shareOf(entry.amount, flowTotal)),
    largest_transaction: entry.largest,
    trend: fmt(trend),
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

export function shapeSpendingAnalysis(query: SpendingQuery, aggregates: SpendingAggregates) {
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

  function timeSeries(entry: EntryAggregate) {
    const rows = periodRows.get(`${entry.flow}\u0000${entry.key}`) ?? [];
    return rows
      .map((row) => ({ period: clippedPeriod(row.period as string, timePeriod, window), row }))
      .sort((a, b) => (a.period.key < b.period.key ? -1 : 1))
      .map(({ period, row }) => ({
        start_date: period.start,
        end_date: period.end,
        amount: money(row.amount),
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

  function categoryEntries() {
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
            amount: money(row.amount),
            count: row.count,
          })),
        time_series: timeSeries(entry),
      })),
    );
  }

  function merchantEntries() {
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
          merchant_name: entry.key,
          category: topName(new Map(categories.map((row) => [row.category as string, row.amount]))),
          ...entryFigures(entry, flowTotals.get(flow) as Exact, lastPeriodTrend(entry)),
          is_recurring: isRecurring(entry.dates ?? [], entry.amountsInCents ?? []),
          time_series: timeSeries(entry),
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
  function periodEntries() {
    return FLOWS.flatMap((flow) => {
      const entries = entriesOf(flow).sort((a, b) => (a.key < b.key ? -1 : 1));
      const amounts = new Map(entries.map((entry) => [entry.key, entry.amount]));
      return entries.map((entry) => {
        const period = clippedPeriod(entry.key, timePeriod, window);
        return {
          time_period: timePeriod,
          start_date: period.start,
          end_date: period.end,
          ...entryFigures(
            entry,
            flowTotals.get(flow) as Exact,
            periodTrend(entry.key, (key) => amounts.get(key)),
          ),
          transaction_ids: withIds ? (entry.transactionIds ?? []) : null,
        };
      });
    });
  }

  function enrichedPeriods(secondary: 'category' | 'merchant') {
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
        start_date: period.start,
        end_date: period.end,
        total_amount: money(entry.amount),
        transaction_count: entry.count,
        percentage_of_total: percent(shareOf(entry.amount, spendingTotal)),
        trend: fmt(periodTrend(entry.key, (key) => amounts.get(key))),
        breakdown: breakdown(items, entry.amount),
      };
    });
  }

  function summary() {
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
      total_spending: money(total),
      average_daily_spending: money(ratio(total, days)),
      average_monthly_spending: money(ratio(total.times(DAYS_PER_MONTH), days)),
      total_transactions: count,
      unique_merchants: uniqueMerchants,
      top_category: topName(totalsBy('category')),
      top_merchant: topName(totalsBy('merchant'), UNKNOWN_MERCHANT),
    };
  }

  return {
    spending: {
      by_category: groupBy === 'category' ? categoryEntries() : null,
      by_merchant: groupBy === 'merchant' ? merchantEntries() : null,
      by_time_period: groupBy === 'time_period' ? periodEntries() : null,
    },
    summary: summary(),
    by_time_period:
      groupBy === 'time_period' && query.secondaryGroupBy
        ? enrichedPeriods(query.secondaryGroupBy)
        : null,
    ...(query.withCashFlow ? cashFlowFields(aggregates.cashFlow) : NO_CASH_FLOW),
  };
}

/**
 * A period's breakdown: its top names by amount (ties: code point order), then one `Other` with
 * the sum and count of the rest, when there is a rest. A real `Other` is never ranked.
 */
export function breakdown(
  items: ReadonlyArray<{ name: string; amount: Exact; count: number }>,
  periodTotal: Exact,
) {
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
    amount: money(item.amount),
    transaction_count: item.count,
    percentage: percent(shareOf(item.amount, periodTotal)),
  }));
}

/** The analysis body without its per-request fields (request_id, created_at). */
export type SpendingAnalysis = ReturnType<typeof shapeSpendingAnalysis>;
