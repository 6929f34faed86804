/**
 * The spending analysis on DuckDB, by one of two paths (spendingAggregates says which, and why):
 * - folded: the user's scoped groups as build-db's rollups store them (or the transactions,
 *   when a single day lists its ids), folded by the domain (domain/spending/fold.ts) as on
 *   PostgreSQL;
 * - one statement: the scoped groups once, the counted ones once, then one aggregation for the
 *   listed entries and one GROUPING SETS pass for every lighter breakdown, plus the summary and
 *   the cash flow.
 * Rows come as one JSON text with every amount cast to text, so they stay exact
 * (DuckDbPool.queryJson); shape.ts turns the aggregates into the response.
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
  type MerchantAmount,
  SpendingFold,
  type SpendingGroup,
} from '../../domain/spending/fold.ts';
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
  /** The window's whole months come from the monthly rollup. */
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

/**
 * The columns every source yields per scoped row or group, before the link/account scope.
 * `months`: the number of the first of the two parameters of the window's whole months.
 */
function sourceSql({ source, monthly, recurring }: SourceShape, months = 10): string {
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
      // The window's whole months as monthly groups; the rest of the window, days.
      const inMonths = (day: string) =>
        `${day} BETWEEN $${months}::VARCHAR::DATE AND $${months + 1}::VARCHAR::DATE`;
      return `${daily} AND NOT ${inMonths('day')}
  UNION ALL
  SELECT month AS day, ${totals}, largest.day AS largest_day
    ${recurring ? ', days, amounts' : ''}, ${KEYS}
  FROM ${SPENDING_MONTHLY_TABLE}
  WHERE user_id = $1::VARCHAR AND ${inMonths('month')}`;
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
 * $8 include_income, $9 with cash flow, $10/$11 (the rollup, monthly) the window's whole months.
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

/** Merchant entries also need their dates and amounts (is_recurring). */
const MERCHANT_EXTRAS = `, list_sort(list_distinct(flatten(list(days)))) AS dates,
    list_aggregate(flatten(list(amounts))::VARCHAR[], 'histogram') AS amounts`;

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
    sum(count) AS count, ${LARGEST}${groupBy === 'merchant' ? MERCHANT_EXTRAS : ''}
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

/** What a query reads: the rows only for a single day's ids (the rollup holds none). */
function readFor(query: SpendingQuery, { source, monthlyUsers }: SpendingReads) {
  const read: SpendingSource = singleDayTransactionIds(query) ? 'rows' : source;
  const months =
    read === 'rollup' && monthlyUsers.has(query.userId)
      ? wholeMonthsFor(query.window, query.timePeriod)
      : null;
  return { read, months };
}

/**
 * `reads`: what the store's rollups hold (spendingReadsOf). From the rollup, the one statement
 * answers only the monthly rollup's (dense) users, and not their merchant entries over whole
 * months. Measured in-process on a store of 2,000 users and one of 500,000 rows
 * (bench/spending-paths.ts: CPU ms per answer, medians of two runs at load average 7-12 on 2
 * cores): a typical user's answer folded 12-33 ms against 23-53 from the statement, in each of
 * seven shapes (by category, merchant and period, over months, weeks and days); the dense
 * user's from the statement 35-60 ms against 48-78 folded by category or period over months
 * (even by period in one run), 78-574 against 543-1011 over weeks or days (tens of thousands
 * of daily groups to send), but 500-577 against 101-141 folded by merchant over months (the
 * statement counts every amount, the fold only a cadence's). Read from the transactions
 * (equivalence checks), a group per row: the statement, but for a single day's ids, which only
 * the fold lists.
 */
export function spendingAggregates(
  db: DuckDbPool,
  query: SpendingQuery,
  reads: SpendingReads,
): Promise<SpendingAggregates> {
  const { read, months } = readFor(query, reads);
  const statement =
    read === 'rows'
      ? !singleDayTransactionIds(query)
      : reads.monthlyUsers.has(query.userId) && !(query.groupBy === 'merchant' && months);
  return statement ? statementAggregates(db, query, reads) : foldedAggregates(db, query, reads);
}

/** The one statement's aggregates; not for a single day's ids. */
export async function statementAggregates(
  db: DuckDbPool,
  query: SpendingQuery,
  reads: SpendingReads,
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
  const { read, months } = readFor(query, reads);
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

/** $4/$5: the link and account scope over a source's rows `s`. */
const SCOPE = `($4::VARCHAR = '' OR s.account_link_id = $4::VARCHAR)
    AND (len($5::VARCHAR[]) = 0 OR list_contains($5::VARCHAR[], s.account_id))`;

/**
 * The user's scoped groups as they are stored ($1 user, $2/$3 window, $4/$5 scope, $6/$7 the
 * whole months), each with its largest row, for the domain's fold.
 */
const groupsSql = (source: SpendingSource, monthly: boolean, merchant: boolean) => `
  SELECT direction, category::VARCHAR AS category, merchant_name, subcategory, day, to_platform,
    amount::VARCHAR AS amount, count, max_amount::VARCHAR AS max_amount, largest_id,
    largest_day, largest_description, largest_mcc${merchant ? ', days' : ''}
  FROM (${sourceSql({ source, monthly, recurring: merchant }, 6)}) s
  WHERE ${SCOPE}`;

/**
 * How many counted rows of the merchants $8 (and, $9, of none: the Unknown entry) have each
 * amount: $6 include_income, $7 categories, $10/$11 the whole months.
 */
const amountsSql = (source: SpendingSource, monthly: boolean) => `
  SELECT direction, merchant_name, amount::VARCHAR AS amount, count(*) AS count
  FROM (SELECT direction, merchant_name, unnest(amounts) AS amount
    FROM (${sourceSql({ source, monthly, recurring: true })}) s
    WHERE ${SCOPE} AND NOT to_platform
      AND (direction = 'DEBIT' OR $6::BOOLEAN)
      AND (len($7::VARCHAR[]) = 0 OR list_contains($7::VARCHAR[], category::VARCHAR))
      AND (list_contains($8::VARCHAR[], merchant_name)
           OR ($9::BOOLEAN AND coalesce(merchant_name, '') = '')))
  GROUP BY ALL`;

interface StoredGroup extends SpendingGroup {
  largest_id: string;
  largest_day: string;
  largest_description: string;
  largest_mcc: string | null;
}

const GROUPS_SQL = new Map<string, string>();
const AMOUNTS_SQL = new Map<string, string>();
const cached = (cache: Map<string, string>, variant: string, sql: () => string) => {
  let text = cache.get(variant);
  if (!text) {
    text = sql();
    cache.set(variant, text);
  }
  return text;
};

/** The stored groups folded by the domain (domain/spending/fold.ts), as on PostgreSQL. */
export async function foldedAggregates(
  db: DuckDbPool,
  query: SpendingQuery,
  reads: SpendingReads,
): Promise<SpendingAggregates> {
  const scope: SqlParam[] = [
    query.userId,
    query.window.start,
    query.window.end,
    query.linkId ?? '',
    query.accountIds,
  ];
  const { read, months } = readFor(query, reads);
  const listsIds = singleDayTransactionIds(query);
  const monthParams = months ? [months.start, months.end] : [];
  const merchant = query.groupBy === 'merchant';
  const groups = await db.queryJson<StoredGroup>(
    cached(GROUPS_SQL, `${read}/${months !== null}/${merchant}`, () =>
      groupsSql(read, months !== null, merchant),
    ),
    [...scope, ...monthParams],
  );
  const fold = new SpendingFold(query);
  for (const group of groups) {
    fold.add(group, {
      transaction_id: group.largest_id,
      amount: group.max_amount,
      date: group.largest_day,
      description: group.largest_description,
      merchant_category_code: group.largest_mcc,
    });
    // A row source's groups are single rows: the largest is the row.
    if (listsIds && !group.to_platform) {
      fold.addTransactionId({ ...group, id: group.largest_id });
    }
  }
  const names = fold.recurringMerchants();
  if (names.size > 0) {
    const amounts = await db.queryJson<MerchantAmount>(
      cached(AMOUNTS_SQL, `${read}/${months !== null}`, () => amountsSql(read, months !== null)),
      [
        ...scope,
        query.includeIncome,
        query.categories,
        [...names],
        names.has(UNKNOWN_MERCHANT),
        ...monthParams,
      ],
    );
    for (const row of amounts) fold.addAmount(row);
  }
  return fold.aggregates();
}
