/**
 * The spending analysis in one SQL statement: the user's scoped rows once, the counted rows
 * once, then one heavy aggregation for the listed entries and one GROUPING SETS pass for every
 * lighter breakdown, plus the summary and the cash flow. Results are exact text (DECIMAL and
 * BIGINT as strings); shape.ts turns them into the response.
 */

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
    coalesce(sum(amount) FILTER (WHERE direction = 'CREDIT'), 0) AS income,
    coalesce(sum(amount) FILTER (WHERE direction = 'DEBIT' AND NOT to_platform), 0) AS expenses
  FROM scoped
  WHERE $9::BOOLEAN`;

/** The account facts: joined from accounts, or copied onto the transaction row by build-db. */
const ACCOUNT = (derived: boolean) =>
  derived
    ? { user: 't.account_user_id', type: 't.account_type', link: 't.account_link_id' }
    : { user: 'a.user_id', type: 'a.type', link: 'a.link_id' };

/**
 * $1 user, $2/$3 window, $4 link_id or '' (a NULL would bind untyped), $5 account ids, $6 categories, $7 date_trunc unit,
 * $8 include_income, $9 with cash flow, $10 (period variant only) with transaction ids.
 * Every parameter is cast to its type: an untyped one makes DuckDB rebind the statement on each
 * execution, recompiling every regular expression (about 7 ms).
 * `scoped` applies spending rules 1-4 and the link/account scope (the cash-flow basis before
 * rule 6); `counted` adds rules 5-7 for DEBITs and the income rules for CREDITs.
 * With `derived` (stores built with the current platform rules, see build/derived.ts)
 * the account facts and the platform flag are read from the transaction row instead of a join
 * and per-request pattern matching; the rules applied are the same.
 */
const countedCtes = (derived: boolean) => `
WITH scoped AS MATERIALIZED (
  SELECT t.id, t.transacted_at AS day, t.amount, t.direction, t.description, t.merchant_name,
    t.category, t.subcategory, t.merchant_category_code,
    ${derived ? 't.to_platform' : toPlatformSql('t')} AS to_platform
  FROM transactions t
  ${derived ? '' : 'JOIN accounts a ON a.id = t.account_id'}
  WHERE t.user_id = $1::VARCHAR AND ${ACCOUNT(derived).user} = $1::VARCHAR
    AND t.transacted_at BETWEEN $2::VARCHAR::DATE AND $3::VARCHAR::DATE
    AND NOT t.is_hidden AND NOT t.is_internal_transfer
    AND ${ACCOUNT(derived).type} <> 'investment'
    AND ($4::VARCHAR = '' OR ${ACCOUNT(derived).link} = $4::VARCHAR)
    AND (len($5::VARCHAR[]) = 0 OR list_contains($5::VARCHAR[], t.account_id))
),
counted AS MATERIALIZED (
  SELECT id, day, amount, direction, description, merchant_category_code, merchant_name, category,
    coalesce(nullif(merchant_name, ''), '${UNKNOWN_MERCHANT}') AS merchant,
    coalesce(nullif(subcategory, ''), '${UNCATEGORIZED}') AS subcategory,
    date_trunc($7::VARCHAR, day)::DATE AS period
  FROM scoped
  WHERE NOT to_platform
    AND (direction = 'DEBIT' OR $8::BOOLEAN)
    AND (len($6::VARCHAR[]) = 0 OR list_contains($6::VARCHAR[], category::VARCHAR))
)`;

const LARGEST = `first({'transaction_id': id, 'amount': amount, 'date': day,
    'description': description, 'merchant_category_code': merchant_category_code}
    ORDER BY amount DESC, day DESC, id) AS largest`;

const ENTRY_KEY: Record<GroupBy, string> = {
  category: 'category',
  merchant: 'merchant',
  time_period: 'period',
};

/** Per group_by: what the listed entries need beyond their totals. */
const ENTRY_EXTRAS: Record<GroupBy, string> = {
  category: '',
  merchant: `, list(DISTINCT day ORDER BY day) AS dates, list(amount) AS amounts`,
  time_period: `, list(id ORDER BY id) FILTER (WHERE $10::BOOLEAN) AS transaction_ids`,
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
  derived: boolean,
): string {
  const key = ENTRY_KEY[groupBy];
  const sets = breakdownSets(groupBy, secondary);
  // Only columns of some grouping set may be selected; the others read as NULL (UNION BY NAME).
  const keys = [...new Set(sets.flat())];
  return `${countedCtes(derived)}
  SELECT 'entry' AS part, direction, ${key}::VARCHAR AS key, sum(amount) AS amount,
    count(*) AS count, ${LARGEST}${ENTRY_EXTRAS[groupBy]}
  FROM counted GROUP BY direction, ${key}
  UNION ALL BY NAME
  SELECT 'breakdown' AS part, direction, ${keys.map((k) => BREAKDOWN_COLUMN[k]).join(', ')},
    sum(amount) AS amount, count(*) AS count
  FROM counted
  GROUP BY GROUPING SETS (${sets.map((set) => `(direction, ${set.join(', ')})`).join(', ')})
  UNION ALL BY NAME
  SELECT 'summary' AS part, sum(amount) AS amount, count(*) AS count,
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
  derived = false,
): string {
  const variant = `${groupBy}/${groupBy === 'time_period' ? secondary : null}/${derived}`;
  let sql = SQL_BY_VARIANT.get(variant);
  if (!sql) {
    sql = analysisSql(groupBy, groupBy === 'time_period' ? secondary : null, derived);
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
  count: string | null;
  largest: LargestTransaction | null;
  dates: string[] | null;
  amounts: string[] | null;
  transaction_ids: string[] | null;
  unique_merchants: string | null;
  income: string | null;
  expenses: string | null;
}

const flowOf = (direction: AnalysisRow['direction']): Flow =>
  direction === 'CREDIT' ? 'income' : 'spending';
const defined = <T>(value: T | null): T | undefined => value ?? undefined;

/**
 * Does the store hold derived columns computed with our platform rules? Asked once per store
 * when it is opened; a store built before the fingerprint existed has no such column.
 */
export function hasCurrentDerivedColumns(db: Pick<DuckDbPool, 'query'>): Promise<boolean> {
  return db
    .query<{ platform_rules: unknown }>('SELECT platform_rules FROM store_meta LIMIT 1')
    .then(
      (rows) => rows[0]?.platform_rules === PLATFORM_RULES_FINGERPRINT,
      () => false,
    );
}

/** `derived`: the store holds current derived columns (hasCurrentDerivedColumns). */
export async function spendingAggregates(
  db: DuckDbPool,
  query: SpendingQuery,
  derived: boolean,
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
  // Only the period variant lists transaction ids; DuckDB rejects an unused parameter.
  if (query.groupBy === 'time_period') params.push(singleDayTransactionIds(query));
  const rows = await db.query<AnalysisRow & Record<string, unknown>>(
    sqlFor(query.groupBy, query.secondaryGroupBy, derived),
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
