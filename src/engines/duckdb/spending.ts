/**
 * The spending analysis in one SQL statement: the user's scoped rows once, the counted rows
 * once, then one heavy aggregation for the listed entries and one GROUPING SETS pass for every
 * lighter breakdown, plus the summary and the cash flow. Results are exact text (DECIMAL and
 * BIGINT as strings); shape.ts turns them into the response.
 */

import { SPENDING_ROLLUP_TABLE } from '../../build/derived.ts';
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
import { cents } from '../../domain/spending/recurring.ts';
import { PLATFORM_RULES_FINGERPRINT, toPlatformSql } from './platform-sql.ts';
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
 * Where the scoped rows come from, fastest first:
 * - `rollup`: the per-day groups build-db derives (build/derived.ts), each with its totals, its
 *   largest row and its amounts; it cannot list transaction ids;
 * - `rows`: the transactions, with the account facts and the platform flag build-db copies onto
 *   each row;
 * - `joined`: the transactions joined with their accounts, the platform patterns matched per
 *   request (a store built by an older build-db, or with other platform rules).
 * The three answer identically (test/spending-derived.test.ts).
 */
export type SpendingSource = 'rollup' | 'rows' | 'joined';

/** The columns every source yields per scoped row or group, before the link/account scope. */
const SOURCE_SQL: Record<SpendingSource, string> = {
  rollup: `
  SELECT day, amount, count, max_amount, largest.id AS largest_id,
    largest.description AS largest_description,
    largest.merchant_category_code AS largest_mcc, amounts, direction, merchant_name, category,
    subcategory, to_platform, account_id, account_link_id
  FROM ${SPENDING_ROLLUP_TABLE}
  WHERE user_id = $1::VARCHAR AND day BETWEEN $2::VARCHAR::DATE AND $3::VARCHAR::DATE`,
  rows: `
  SELECT t.transacted_at AS day, t.amount, 1 AS count, t.amount AS max_amount,
    t.id AS largest_id, t.description AS largest_description,
    t.merchant_category_code AS largest_mcc, [t.amount] AS amounts, t.direction,
    t.merchant_name, t.category, t.subcategory, t.to_platform, t.account_id, t.account_link_id
  FROM transactions t
  WHERE t.user_id = $1::VARCHAR AND t.account_user_id = $1::VARCHAR
    AND t.transacted_at BETWEEN $2::VARCHAR::DATE AND $3::VARCHAR::DATE
    AND NOT t.is_hidden AND NOT t.is_internal_transfer AND t.account_type <> 'investment'`,
  joined: `
  SELECT t.transacted_at AS day, t.amount, 1 AS count, t.amount AS max_amount,
    t.id AS largest_id, t.description AS largest_description,
    t.merchant_category_code AS largest_mcc, [t.amount] AS amounts, t.direction,
    t.merchant_name, t.category, t.subcategory, ${toPlatformSql('t')} AS to_platform,
    t.account_id, a.link_id AS account_link_id
  FROM transactions t JOIN accounts a ON a.id = t.account_id
  WHERE t.user_id = $1::VARCHAR AND a.user_id = $1::VARCHAR
    AND t.transacted_at BETWEEN $2::VARCHAR::DATE AND $3::VARCHAR::DATE
    AND NOT t.is_hidden AND NOT t.is_internal_transfer AND a.type <> 'investment'`,
};

/**
 * $1 user, $2/$3 window, $4 link_id or '' (a NULL would bind untyped), $5 account ids, $6 categories, $7 date_trunc unit,
 * $8 include_income, $9 with cash flow, $10 (period variant of a row source only) with
 * transaction ids.
 * Every parameter is cast to its type: an untyped one makes DuckDB rebind the statement on each
 * execution, recompiling every regular expression (about 7 ms).
 * `scoped` applies spending rules 1-4 and the link/account scope (the cash-flow basis before
 * rule 6); `counted` adds rules 5-7 for DEBITs and the income rules for CREDITs. Each of its
 * rows is a group of `count` transactions (one, from a row source): totals are sums of sums.
 */
const countedCtes = (source: SpendingSource) => `
WITH scoped AS MATERIALIZED (
  SELECT * FROM (${SOURCE_SQL[source]}) s
  WHERE ($4::VARCHAR = '' OR s.account_link_id = $4::VARCHAR)
    AND (len($5::VARCHAR[]) = 0 OR list_contains($5::VARCHAR[], s.account_id))
),
counted AS MATERIALIZED (
  SELECT day, amount, count, max_amount, largest_id, largest_description, largest_mcc, amounts,
    direction, merchant_name, category,
    coalesce(nullif(merchant_name, ''), '${UNKNOWN_MERCHANT}') AS merchant,
    coalesce(nullif(subcategory, ''), '${UNCATEGORIZED}') AS subcategory,
    date_trunc($7::VARCHAR, day)::DATE AS period
  FROM scoped
  WHERE NOT to_platform
    AND (direction = 'DEBIT' OR $8::BOOLEAN)
    AND (len($6::VARCHAR[]) = 0 OR list_contains($6::VARCHAR[], category::VARCHAR))
)`;

/** A group's largest row is its largest amount's smallest id; across groups, the latest day. */
const LARGEST = `first({'transaction_id': largest_id, 'amount': max_amount::VARCHAR, 'date': day,
    'description': largest_description, 'merchant_category_code': largest_mcc}
    ORDER BY max_amount DESC, day DESC, largest_id) AS largest`;

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
      return `, list(DISTINCT day ORDER BY day) AS dates, flatten(list(amounts))::VARCHAR[] AS amounts`;
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
): string {
  const key = ENTRY_KEY[groupBy];
  const sets = breakdownSets(groupBy, secondary);
  // Only columns of some grouping set may be selected; the others read as NULL (UNION BY NAME).
  const keys = [...new Set(sets.flat())];
  return `${countedCtes(source)}
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
export function sqlFor(
  groupBy: GroupBy,
  secondary: SecondaryGroupBy | null,
  source: SpendingSource,
): string {
  const variant = `${groupBy}/${groupBy === 'time_period' ? secondary : null}/${source}`;
  let sql = SQL_BY_VARIANT.get(variant);
  if (!sql) {
    sql = analysisSql(groupBy, groupBy === 'time_period' ? secondary : null, source);
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
  amounts: string[] | null;
  transaction_ids: string[] | null;
  unique_merchants: number | null;
  income: string | null;
  expenses: string | null;
}

const flowOf = (direction: AnalysisRow['direction']): Flow =>
  direction === 'CREDIT' ? 'income' : 'spending';
const defined = <T>(value: T | null): T | undefined => value ?? undefined;

/**
 * The fastest source the store offers (SpendingSource), asked once per store when it is opened.
 * The stored platform flag counts only when the store records our platform rules' fingerprint;
 * a store built before the fingerprint, or before the rollup, lacks the column or the table.
 */
export async function spendingSourceOf(db: Pick<DuckDbPool, 'query'>): Promise<SpendingSource> {
  const current = await db
    .query<{ platform_rules: unknown }>('SELECT platform_rules FROM store_meta LIMIT 1')
    .then(
      (rows) => rows[0]?.platform_rules === PLATFORM_RULES_FINGERPRINT,
      () => false,
    );
  if (!current) return 'joined';
  return db.query(`SELECT largest, amounts FROM ${SPENDING_ROLLUP_TABLE} LIMIT 0`).then(
    () => 'rollup',
    () => 'rows',
  );
}

/** `source`: the store's fastest (spendingSourceOf). */
export async function spendingAggregates(
  db: DuckDbPool,
  query: SpendingQuery,
  source: SpendingSource,
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
  const read = source === 'rollup' && listsIds ? 'rows' : source;
  // Only the period variant of a row source lists ids; DuckDB rejects an unused parameter.
  if (query.groupBy === 'time_period' && read !== 'rollup') params.push(listsIds);
  const rows = await db.queryJson<AnalysisRow>(
    sqlFor(query.groupBy, query.secondaryGroupBy, read),
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
          ...(row.dates ? { dates: row.dates } : {}),
          ...(row.amounts ? { amountsInCents: row.amounts.map(cents) } : {}),
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
