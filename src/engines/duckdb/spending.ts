/**
 * The spending analysis in one SQL statement: the user's scoped groups once (from build-db's
 * rollups, or the transactions when a single day lists its ids), the counted ones once, then one
 * aggregation for the listed entries and one GROUPING SETS pass for every lighter breakdown,
 * plus the summary and the cash flow. The rows come as one JSON text with every amount cast to
 * text, so they stay exact (DuckDbPool.queryJson); shape.ts turns them into the response.
 */

import {
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../contract/derived.ts';
import { wholeMonthsFor } from '../../domain/calendar.ts';
import { exact } from '../../domain/money.ts';
import { cashFlowTotals } from '../../domain/spending/cash-flow.ts';
import {
  type BreakdownKey,
  breakdownSets,
  type Flow,
  type GroupBy,
  type LargestTransaction,
  type SecondaryGroupBy,
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
  UNCATEGORIZED,
  UNKNOWN_MERCHANT,
} from '../../domain/spending/model.ts';
import { cents, hasRecurringCadence } from '../../domain/spending/recurring.ts';
import { countedRowSql } from '../sql/counted.ts';
import type { DuckDbPool, SqlParam } from './pool.ts';

/** One row over the scoped rows (see countedCtes); `$9` switches it off for the legacy endpoint. */
const CASH_FLOW_SQL = `
  SELECT 'cash_flow' AS part,
    coalesce(sum(amount) FILTER (WHERE direction = 'CREDIT'), 0)::VARCHAR AS income,
    coalesce(sum(amount) FILTER (WHERE direction = 'DEBIT' AND NOT to_platform), 0)::VARCHAR
      AS expenses
  FROM scoped
  WHERE $9::BOOLEAN`;

/**
 * Where the scoped rows come from:
 * - `rollup`: the per-day and per-month groups build-db derives (ingest/derive.ts), each with
 *   its totals, its largest row, its days and its amounts; it cannot list transaction ids;
 * - `rows`: the transactions, with the account facts and the platform flag build-db copies onto
 *   each row: what the single-day query that lists ids reads.
 * The two answer identically (test/engines/duckdb/spending-derived.test.ts).
 */
export type SpendingSource = 'rollup' | 'rows';

/** What a variant reads beyond the totals. */
interface SourceShape {
  source: SpendingSource;
  /** The window's whole months ($10-$11) come from the monthly rollup. */
  monthly: boolean;
  /** Each group's days and amounts (merchant entries: is_recurring). */
  recurring: boolean;
}

const KEYS = `direction, merchant_name, category, subcategory, to_platform, account_id,
    account_link_id`;

/** A transaction as a group of one. */
const rowColumns = (t: string, recurring: boolean) => `${t}.transacted_at AS day, ${t}.amount,
    1 AS count, ${t}.amount AS max_amount, ${t}.id AS largest_id,
    ${t}.description AS largest_description, ${t}.merchant_category_code AS largest_mcc,
    ${t}.transacted_at AS largest_day
    ${recurring ? `, [${t}.transacted_at] AS days, [${t}.amount] AS amounts` : ''}`;

/** The columns every source yields per scoped row or group, before the link/account scope. */
function sourceSql({ source, monthly, recurring }: SourceShape): string {
  const window = (day: string) => `${day} BETWEEN $2::VARCHAR::DATE AND $3::VARCHAR::DATE`;
  switch (source) {
    case 'rollup': {
      const totals = `amount, count, max_amount, largest.id AS largest_id,
    largest.description AS largest_description,
    largest.merchant_category_code AS largest_mcc`;
      const daily = `
  SELECT day, ${totals}, day AS largest_day
    ${recurring ? ', [day] AS days, amounts' : ''}, ${KEYS}
  FROM ${SPENDING_DAILY_TABLE}
  WHERE user_id = $1::VARCHAR AND ${window('day')}`;
      if (!monthly) return daily;
      // The window's whole months ($10-$11) as monthly groups; the rest of the window, days.
      const months = (day: string) => `${day} BETWEEN $10::VARCHAR::DATE AND $11::VARCHAR::DATE`;
      return `${daily} AND NOT ${months('day')}
  UNION ALL
  SELECT month AS day, ${totals}, largest.day AS largest_day
    ${recurring ? ', days, amounts' : ''}, ${KEYS}
  FROM ${SPENDING_MONTHLY_TABLE}
  WHERE user_id = $1::VARCHAR AND ${months('month')}`;
    }
    case 'rows':
      return `
  SELECT ${rowColumns('t', recurring)}, t.direction, t.merchant_name, t.category, t.subcategory,
    t.to_platform, t.account_id, t.account_link_id
  FROM transactions t
  WHERE t.user_id = $1::VARCHAR AND t.account_user_id = $1::VARCHAR AND ${window('t.transacted_at')}
    AND ${countedRowSql('t')}`;
  }
}

/**
 * $1 user, $2/$3 window, $4 link_id or '' (a NULL would bind untyped), $5 account ids, $6 categories, $7 date_trunc unit,
 * $8 include_income, $9 with cash flow, $10 (period variant of a row source only) with
 * transaction ids, or $10/$11 (the rollup, monthly) the window's whole months.
 * Every parameter is cast to its type: an untyped one makes DuckDB rebind the statement on each
 * execution, recompiling every regular expression (about 7 ms).
 * `scoped` applies spending rules 1-4 and the link/account scope (the cash-flow basis before
 * rule 6); `counted` adds rules 5-7 for DEBITs and the income rules for CREDITs. Each of its
 * rows is a group of `count` transactions (one, from a row source): totals are sums of sums.
 */
const countedCtes = (shape: SourceShape) => `
WITH scoped AS MATERIALIZED (
  SELECT * FROM (${sourceSql(shape)}) s
  WHERE ($4::VARCHAR = '' OR s.account_link_id = $4::VARCHAR)
    AND (len($5::VARCHAR[]) = 0 OR list_contains($5::VARCHAR[], s.account_id))
),
counted AS MATERIALIZED (
  SELECT * EXCLUDE (to_platform, account_id, account_link_id)
      REPLACE (coalesce(nullif(subcategory, ''), '${UNCATEGORIZED}') AS subcategory),
    coalesce(nullif(merchant_name, ''), '${UNKNOWN_MERCHANT}') AS merchant,
    date_trunc($7::VARCHAR, day)::DATE AS period
  FROM scoped
  WHERE NOT to_platform
    AND (direction = 'DEBIT' OR $8::BOOLEAN)
    AND (len($6::VARCHAR[]) = 0 OR list_contains($6::VARCHAR[], category::VARCHAR))
)`;

/** Each group's largest row, then across groups: largest amount, latest day, smallest id. */
const LARGEST = `first({'transaction_id': largest_id, 'amount': max_amount::VARCHAR,
    'date': largest_day, 'description': largest_description, 'merchant_category_code': largest_mcc}
    ORDER BY max_amount DESC, largest_day DESC, largest_id) AS largest`;

const ENTRY_KEY: Record<GroupBy, string> = {
  category: 'category',
  merchant: 'merchant',
  time_period: 'period',
};

/** Per group_by: what the listed entries need beyond their totals. */
const entryExtras = (groupBy: GroupBy, source: SpendingSource): string => {
  switch (groupBy) {
    case 'category':
      return '';
    case 'merchant':
      return `, list_sort(list_distinct(flatten(list(days)))) AS dates,
    list_aggregate(flatten(list(amounts))::VARCHAR[], 'histogram') AS amounts`;
    case 'time_period':
      // Only a row source knows ids: the single-day query that lists them reads rows.
      return source === 'rollup'
        ? ''
        : `, list(largest_id ORDER BY largest_id) FILTER (WHERE $10::BOOLEAN) AS transaction_ids`;
  }
};

const BREAKDOWN_COLUMN: Record<BreakdownKey, string> = {
  category: 'category::VARCHAR AS category',
  merchant: 'merchant',
  subcategory: 'subcategory',
  period: 'period',
};

function analysisSql(
  groupBy: GroupBy,
  secondary: SecondaryGroupBy | null,
  source: SpendingSource,
  monthly: boolean,
): string {
  const key = ENTRY_KEY[groupBy];
  const sets = breakdownSets(groupBy, secondary);
  // Only columns of some grouping set may be selected; the others read as NULL (UNION BY NAME).
  const keys = [...new Set(sets.flat())];
  return `${countedCtes({ source, monthly, recurring: groupBy === 'merchant' })}
  SELECT 'entry' AS part, direction, ${key}::VARCHAR AS key, sum(amount)::VARCHAR AS amount,
    sum(count) AS count, ${LARGEST}${entryExtras(groupBy, source)}
  FROM counted GROUP BY direction, ${key}
  UNION ALL BY NAME
  SELECT 'breakdown' AS part, direction, ${keys.map((k) => BREAKDOWN_COLUMN[k]).join(', ')},
    sum(amount)::VARCHAR AS amount, sum(count) AS count
  FROM counted
  GROUP BY GROUPING SETS (${sets.map((set) => `(direction, ${set.join(', ')})`).join(', ')})
  UNION ALL BY NAME
  SELECT 'summary' AS part, sum(amount)::VARCHAR AS amount, sum(count) AS count,
    count(DISTINCT merchant_name) FILTER (WHERE merchant_name <> '') AS unique_merchants
  FROM counted WHERE direction = 'DEBIT'
  UNION ALL BY NAME
  ${CASH_FLOW_SQL}`;
}

/** The SQL text per variant, built once: a constant text per variant keeps statements prepared. */
const SQL_BY_VARIANT = new Map<string, string>();
/** `monthly`: read the window's whole months ($10-$11) from the monthly rollup (SourceShape). */
export function sqlFor(
  groupBy: GroupBy,
  secondary: SecondaryGroupBy | null,
  source: SpendingSource,
  monthly = false,
): string {
  const variant = `${groupBy}/${groupBy === 'time_period' ? secondary : null}/${source}/${monthly}`;
  let sql = SQL_BY_VARIANT.get(variant);
  if (!sql) {
    sql = analysisSql(groupBy, groupBy === 'time_period' ? secondary : null, source, monthly);
    SQL_BY_VARIANT.set(variant, sql);
  }
  return sql;
}

interface AnalysisRow {
  part: 'entry' | 'breakdown' | 'summary' | 'cash_flow';
  direction: 'DEBIT' | 'CREDIT' | null;
  key: string | null;
  category: string | null;
  merchant: string | null;
  subcategory: string | null;
  period: string | null;
  amount: string | null;
  count: number | null;
  largest: LargestTransaction | null;
  dates: string[] | null;
  /** Each distinct amount and how many counted rows have it. */
  amounts: Record<string, number> | null;
  transaction_ids: string[] | null;
  unique_merchants: number | null;
  income: string | null;
  expenses: string | null;
}

const flowOf = (direction: AnalysisRow['direction']): Flow =>
  direction === 'CREDIT' ? 'income' : 'spending';
const defined = <T>(value: T | null): T | undefined => value ?? undefined;

/** How a store's spending analysis reads (spendingReadsOf). */
export interface SpendingReads {
  /** `rollup` serving; `rows` reads the transactions for every query (equivalence checks). */
  source: SpendingSource;
  /** Users whose whole months are read from the monthly rollup (source `rollup`). */
  monthlyUsers: ReadonlySet<string>;
}

/**
 * A merchant entry's amounts, one per counted row, only when its dates have a recurring cadence
 * (recurring.ts: the others cannot be recurring whatever their amounts). The SQL sends each
 * distinct amount once with its count: a heavy user's 400,000 amounts are a few thousand, and
 * his daily merchants, which have no cadence, expand to none.
 */
function amountsIfCadence(dates: string[], amounts: Record<string, number> | null): bigint[] {
  if (!amounts || !hasRecurringCadence(dates)) return [];
  const expanded: bigint[] = [];
  for (const [amount, count] of Object.entries(amounts)) {
    const each = cents(amount);
    for (let i = 0; i < count; i++) expanded.push(each);
  }
  return expanded;
}

/** The users whose whole months the monthly rollup holds, asked once when a store is opened. */
export async function spendingReadsOf(db: Pick<DuckDbPool, 'query'>): Promise<SpendingReads> {
  const users = await db.query<{ user_id: string }>(
    `SELECT user_id FROM ${SPENDING_MONTHLY_USERS_TABLE}`,
  );
  return { source: 'rollup', monthlyUsers: new Set(users.map((row) => row.user_id)) };
}

/** `reads`: what the store's rollups hold (spendingReadsOf). */
export async function spendingAggregates(
  db: DuckDbPool,
  query: SpendingQuery,
  { source, monthlyUsers }: SpendingReads,
): Promise<SpendingAggregates> {
  const params: SqlParam[] = [
    query.userId,
    query.window.start,
    query.window.end,
    query.linkId ?? '',
    query.accountIds,
    query.categories,
    query.timePeriod,
    query.includeIncome,
    query.withCashFlow,
  ];
  const listsIds = singleDayTransactionIds(query);
  // The rollup holds no ids: the one query that lists them (a single day) reads the rows.
  const read = listsIds ? 'rows' : source;
  // Only the period variant of a row source lists ids; DuckDB rejects an unused parameter.
  if (query.groupBy === 'time_period' && read !== 'rollup') params.push(listsIds);
  const months =
    read === 'rollup' && monthlyUsers.has(query.userId)
      ? wholeMonthsFor(query.window, query.timePeriod)
      : null;
  if (months) params.push(months.start, months.end);
  const rows = await db.queryJson<AnalysisRow>(
    sqlFor(query.groupBy, query.secondaryGroupBy, read, months !== null),
    params,
  );
  const aggregates: SpendingAggregates = {
    entries: [],
    breakdowns: [],
    summary: { total: exact(0), count: 0, uniqueMerchants: 0 },
    cashFlow: cashFlowTotals(undefined),
  };
  for (const row of rows) {
    switch (row.part) {
      case 'entry':
        aggregates.entries.push({
          flow: flowOf(row.direction),
          key: row.key as string,
          amount: exact(row.amount),
          count: Number(row.count),
          largest: row.largest as LargestTransaction,
          ...(row.dates
            ? { dates: row.dates, amountsInCents: amountsIfCadence(row.dates, row.amounts) }
            : {}),
          ...(row.transaction_ids ? { transactionIds: row.transaction_ids } : {}),
        });
        break;
      case 'breakdown':
        aggregates.breakdowns.push({
          flow: flowOf(row.direction),
          category: defined(row.category),
          merchant: defined(row.merchant),
          subcategory: defined(row.subcategory),
          period: defined(row.period),
          amount: exact(row.amount),
          count: Number(row.count),
        });
        break;
      case 'summary':
        aggregates.summary = {
          total: exact(row.amount ?? 0),
          count: Number(row.count ?? 0),
          uniqueMerchants: Number(row.unique_merchants ?? 0),
        };
        break;
      case 'cash_flow':
        aggregates.cashFlow = cashFlowTotals(row);
        break;
    }
  }
  return aggregates;
}
