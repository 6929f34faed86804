import { changeOf } from '../../build/changes.ts';
import { CHANGE_LOG_TABLE } from '../../build/schema.ts';
import type {
  ChangeRange,
  DailyTotalRecord,
  PageWindow,
  TransactionChange,
  TransactionFilters,
  TransactionRecord,
  TransactionsPage,
} from '../../port/read-port.ts';
import type { DuckDbPool, SqlParam } from './pool.ts';

/**
 * The WHERE clause of the user's transactions that match the filters, with only the filters in
 * use (an unused one still costs its evaluation per row), and its parameters from `$1` on. Each
 * parameter is cast to its type (an untyped one is rebound on each run); the statement text
 * depends only on which filters are in use, so each shape is prepared once per connection.
 */
function matching(
  userId: string,
  filters: TransactionFilters,
): { where: string; params: SqlParam[] } {
  const params: SqlParam[] = [userId];
  const param = (value: SqlParam, type: string) => {
    params.push(value);
    return `$${params.length}::${type}`;
  };
  const conditions = [`t.user_id = $1::VARCHAR`];
  if (filters.from !== null) conditions.push(`t.transacted_at >= ${param(filters.from, 'DATE')}`);
  if (filters.to !== null) conditions.push(`t.transacted_at <= ${param(filters.to, 'DATE')}`);
  if (filters.accountIds.length > 0) {
    conditions.push(`list_contains(${param(filters.accountIds, 'VARCHAR[]')}, t.account_id)`);
  }
  if (filters.linkId !== null) {
    conditions.push(`t.account_id IN (SELECT id FROM accounts
       WHERE user_id = $1::VARCHAR AND link_id = ${param(filters.linkId, 'VARCHAR')})`);
  }
  if (filters.categories.length > 0) {
    conditions.push(
      `list_contains(${param(filters.categories, 'VARCHAR[]')}, t.category::VARCHAR)`,
    );
  }
  if (filters.direction !== null) {
    conditions.push(`t.direction::VARCHAR = ${param(filters.direction, 'VARCHAR')}`);
  }
  if (filters.minAmount !== null) {
    conditions.push(`t.amount >= ${param(filters.minAmount, 'DECIMAL(38, 2)')}`);
  }
  if (filters.maxAmount !== null) {
    conditions.push(`t.amount <= ${param(filters.maxAmount, 'DECIMAL(38, 2)')}`);
  }
  if (filters.text !== null) {
    const text = param(filters.text, 'VARCHAR');
    conditions.push(`(contains(lower(t.description), ${text})
       OR contains(lower(coalesce(t.merchant_name, '')), ${text}))`);
  }
  return { where: conditions.join('\n  AND '), params };
}

/**
 * The listed columns and where they come from. A store built with the account facts copied onto
 * each transaction (build/derived.ts) needs no join: joining accounts made DuckDB build a hash
 * table of every account of every user for each page.
 */
const SOURCE = (accountFacts: boolean) =>
  accountFacts
    ? { from: 'transactions t', type: 't.account_type' }
    : {
        from: 'transactions t LEFT JOIN accounts a ON a.id = t.account_id AND a.user_id = t.user_id',
        type: 'a.type',
      };

const COLUMNS = (type: string) => `t.id, t.external_id, t.account_id, t.transacted_at,
         t.amount::VARCHAR AS amount,
         t.direction, t.description, t.merchant_name, t.category, t.subcategory,
         t.merchant_category_code, t.is_hidden, t.is_internal_transfer,
         coalesce(${type} = 'investment', false) AS is_investment_account`;

/**
 * A page and the count of every matching transaction in one statement (a window aggregate,
 * computed before the page is cut). Beyond the last page no row carries the count.
 */
const pageSql = (accountFacts: boolean, where: string, limit: string, offset: string) => {
  const { from, type } = SOURCE(accountFacts);
  return `
  SELECT ${COLUMNS(type)}, count(*) OVER () AS total_count
  FROM ${from}
  WHERE ${where}
  ORDER BY t.transacted_at DESC, t.id DESC
  LIMIT ${limit} OFFSET ${offset}`;
};

/**
 * Totals of the days from `oldest` to `newest` (the page's), over every matching transaction of
 * those days. The page is a run of the matching transactions in date order, so every day in
 * between that has one is on the page: these are exactly the page's days, each counted whole.
 * (Per-day window aggregates in the page statement cost DuckDB twice as much.)
 */
const dailyTotalsSql = (where: string, oldest: string, newest: string) => `
  SELECT t.transacted_at AS date,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'DEBIT'), 0)::VARCHAR AS debits,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'CREDIT'), 0)::VARCHAR AS credits,
         count(*) AS count
  FROM transactions t
  WHERE ${where} AND t.transacted_at BETWEEN ${oldest} AND ${newest}
  GROUP BY t.transacted_at`;

/** Every matching row, newest first (the unpaginated list, streamed). */
const listSql = (accountFacts: boolean, where: string) => {
  const { from, type } = SOURCE(accountFacts);
  return `
  SELECT ${COLUMNS(type)}
  FROM ${from}
  WHERE ${where}
  ORDER BY t.transacted_at DESC, t.id DESC`;
};

/** $1 user, $2 id. */
const ONE_SQL = (accountFacts: boolean) => {
  const { from, type } = SOURCE(accountFacts);
  return `
  SELECT ${COLUMNS(type)}
  FROM ${from}
  WHERE t.user_id = $1::VARCHAR AND t.id = $2::VARCHAR`;
};

const ONE = { true: ONE_SQL(true), false: ONE_SQL(false) };

/** $1 user, $2 the last id read (NULL: from the first), $3 how many. */
const BY_ID_SQL = (accountFacts: boolean) => {
  const { from, type } = SOURCE(accountFacts);
  return `
  SELECT ${COLUMNS(type)}
  FROM ${from}
  WHERE t.user_id = $1::VARCHAR AND ($2::VARCHAR IS NULL OR t.id > $2::VARCHAR)
  ORDER BY t.id
  LIMIT $3::BIGINT`;
};

const BY_ID = { true: BY_ID_SQL(true), false: BY_ID_SQL(false) };

/**
 * The user's net changes over change sets $2 (exclusive) to $3 (inclusive), ids after $4, $5 at
 * most: each transaction as it was before the first entry of the range and after its last.
 */
const CHANGES_SQL = `
  SELECT id, first(before ORDER BY seq) AS before, first(after ORDER BY seq DESC) AS after
  FROM ${CHANGE_LOG_TABLE}
  WHERE user_id = $1::VARCHAR AND seq > $2::INTEGER AND seq <= $3::INTEGER
    AND ($4::VARCHAR IS NULL OR id > $4::VARCHAR)
  GROUP BY id
  HAVING first(before ORDER BY seq) IS DISTINCT FROM first(after ORDER BY seq DESC)
  ORDER BY id
  LIMIT $5::BIGINT`;

export async function transactionsById(
  db: DuckDbPool,
  accountFacts: boolean,
  userId: string,
  after: string | null,
  limit: number,
): Promise<TransactionRecord[]> {
  // Rows as one JSON text (DuckDbPool.queryJson): a page of 100 is 1,400 values.
  return db.queryJson<TransactionRecord>(BY_ID[`${accountFacts}`], [userId, after, limit], 'r.id');
}

export async function transactionChanges(
  db: DuckDbPool,
  userId: string,
  range: ChangeRange,
): Promise<TransactionChange[]> {
  const rows = await db.query<{ id: string; before: string | null; after: string | null }>(
    CHANGES_SQL,
    [userId, range.from, range.to, range.after, range.limit],
  );
  return rows.map(changeOf);
}

/** The page's order, over the page statement's columns. */
const NEWEST_FIRST = 'r.transacted_at DESC, r.id DESC';

type PageRow = TransactionRecord & { total_count: number };

export async function transactionCount(
  db: DuckDbPool,
  userId: string,
  filters: TransactionFilters,
): Promise<number> {
  const { where, params } = matching(userId, filters);
  const [row] = await db.query<{ count: string }>(
    `SELECT count(*) AS count FROM transactions t WHERE ${where}`,
    params,
  );
  return Number(row?.count ?? 0);
}

export function transactionChunks(
  db: DuckDbPool,
  accountFacts: boolean,
  userId: string,
  filters: TransactionFilters,
): AsyncIterable<TransactionRecord[]> {
  const { where, params } = matching(userId, filters);
  return db.stream<TransactionRecord & Record<string, unknown>>(
    listSql(accountFacts, where),
    params,
  );
}

/** `accountFacts`: the store's transactions carry their account's type (hasAccountFacts). */
export async function transactions(
  db: DuckDbPool,
  accountFacts: boolean,
  userId: string,
  filters: TransactionFilters,
  page: PageWindow,
): Promise<TransactionsPage> {
  const { where, params } = matching(userId, filters);
  // LIMIT NULL: every row.
  const limit = `$${params.length + 1}::BIGINT`;
  const offset = `$${params.length + 2}::BIGINT`;
  // Rows as one JSON text (DuckDbPool.queryJson): a page is about 700 values.
  const found = await db.queryJson<PageRow>(
    pageSql(accountFacts, where, limit, offset),
    [...params, page.limit, page.offset],
    NEWEST_FIRST,
  );
  const rows = found.map(({ total_count, ...row }): TransactionRecord => row);
  // The page's days run from its last row to its first (newest first); none when empty.
  const newest = rows[0];
  const oldest = rows.at(-1);
  const dailyRows =
    newest && oldest
      ? await db.queryJson<DailyTotalRecord>(
          dailyTotalsSql(where, `$${params.length + 1}::DATE`, `$${params.length + 2}::DATE`),
          [...params, oldest.transacted_at, newest.transacted_at],
          'r.date DESC',
        )
      : [];
  const total =
    found[0] !== undefined
      ? found[0].total_count
      : page.offset > 0
        ? await transactionCount(db, userId, filters)
        : 0;
  return { rows, total, dailyTotals: dailyRows };
}

export async function transaction(
  db: DuckDbPool,
  accountFacts: boolean,
  userId: string,
  id: string,
): Promise<TransactionRecord | null> {
  const [row] = await db.query<TransactionRecord & Record<string, unknown>>(
    ONE[`${accountFacts}`],
    [userId, id],
  );
  return row ?? null;
}

/** Does the store copy each transaction's account type onto it (build/derived.ts)? */
export function hasAccountFacts(db: Pick<DuckDbPool, 'query'>): Promise<boolean> {
  return db.query('SELECT account_type FROM transactions LIMIT 0').then(
    () => true,
    () => false,
  );
}
