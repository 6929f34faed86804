import { CHANGE_LOG_TABLE } from '../../contract/tables.ts';
import { changeOf } from '../../port/change-log.ts';
import {
  type DailyTotalRecord,
  LIST_CHUNK_ROWS,
  StoreUnavailableError,
  type TransactionFilters,
  type TransactionReads,
  type TransactionRecord,
} from '../../port/read-port.ts';
import { investmentAccountSql } from '../../sql/counted.ts';
import type { SqlParam } from '../../sql/statement.ts';
import type { DuckDbPool } from './pool.ts';

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
 * The listed columns. Each transaction carries its account's type (ingest/derive.ts), so a
 * page joins nothing: joining accounts made DuckDB build a hash table of every account of every
 * user for each page.
 */
const COLUMNS = `t.id, t.external_id, t.account_id, t.transacted_at,
         t.amount::VARCHAR AS amount,
         t.direction, t.description, t.merchant_name, t.category, t.subcategory,
         t.merchant_category_code, t.is_hidden, t.is_internal_transfer,
         ${investmentAccountSql('t')} AS is_investment_account`;

/**
 * A page and the count of every matching transaction in one statement (a window aggregate,
 * computed before the page is cut). Beyond the last page no row carries the count.
 */
const pageSql = (where: string, limit: string, offset: string) => `
  SELECT ${COLUMNS}, count(*) OVER () AS total_count
  FROM transactions t
  WHERE ${where}
  ORDER BY t.transacted_at DESC, t.id DESC
  LIMIT ${limit} OFFSET ${offset}`;

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

/** The days with matching rows and how many each (the unpaginated list's plan). */
const dayCountsSql = (where: string) => `
  SELECT t.transacted_at AS date, count(*) AS count
  FROM transactions t
  WHERE ${where}
  GROUP BY t.transacted_at`;

/**
 * The matching rows of a run of days, newest first: `$n+1` the oldest day, `$n+2` the newest.
 * The days bound the scan (the table is sorted by user and day, so it reads only their blocks)
 * and select only the rows sent, whose columns alone are fetched.
 */
const daysSql = (where: string, n: number) => `
  SELECT ${COLUMNS}
  FROM transactions t
  WHERE ${where} AND t.transacted_at BETWEEN $${n + 1}::DATE AND $${n + 2}::DATE
  ORDER BY t.transacted_at DESC, t.id DESC`;

/** One day of more rows than a chunk, a chunk at a time: `$n+1` the day, `$n+2` the last id read (NULL: none yet), `$n+3` the chunk size. */
const dayPageSql = (where: string, n: number) => `
  SELECT ${COLUMNS}
  FROM transactions t
  WHERE ${where} AND t.transacted_at = $${n + 1}::DATE
    AND ($${n + 2}::VARCHAR IS NULL OR t.id < $${n + 2}::VARCHAR)
  ORDER BY t.id DESC
  LIMIT $${n + 3}::BIGINT`;

/** $1 user, $2 id. */
const ONE_SQL = `
  SELECT ${COLUMNS}
  FROM transactions t
  WHERE t.user_id = $1::VARCHAR AND t.id = $2::VARCHAR`;

/** $1 user, $2 the last id read (NULL: from the first), $3 how many. */
const BY_ID_SQL = `
  SELECT ${COLUMNS}
  FROM transactions t
  WHERE t.user_id = $1::VARCHAR AND ($2::VARCHAR IS NULL OR t.id > $2::VARCHAR)
  ORDER BY t.id
  LIMIT $3::BIGINT`;

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

/** The page's order, over the page statement's columns. */
const NEWEST_FIRST = 'r.transacted_at DESC, r.id DESC';

type PageRow = TransactionRecord & { total_count: number };

function expectRows(read: number, counted: number, oldest: string, newest: string): void {
  if (read !== counted) {
    throw new StoreUnavailableError(
      `store answered ${read} rows for ${oldest}..${newest} where it counted ${counted}`,
    );
  }
}

export function transactionReads(db: DuckDbPool): TransactionReads {
  const transactionCount = async (userId: string, filters: TransactionFilters) => {
    const { where, params } = matching(userId, filters);
    const [row] = await db.query<{ count: string }>(
      `SELECT count(*) AS count FROM transactions t WHERE ${where}`,
      params,
    );
    return Number(row?.count ?? 0);
  };

  return {
    transactionCount,

    async transactions(userId, filters, page) {
      const { where, params } = matching(userId, filters);
      // LIMIT NULL: every row.
      const limit = `$${params.length + 1}::BIGINT`;
      const offset = `$${params.length + 2}::BIGINT`;
      // Rows as one JSON text (DuckDbPool.queryJson): a page is about 700 values.
      const found = await db.queryJson<PageRow>(
        pageSql(where, limit, offset),
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
            ? await transactionCount(userId, filters)
            : 0;
      return { rows, total, dailyTotals: dailyRows };
    },

    /**
     * Every matching row, newest first, a chunk of at most about LIST_CHUNK_ROWS at a time.
     * First the matching rows per day, then runs of whole days of at most a chunk's rows, each
     * one query (a day of more rows is read a chunk at a time): each chunk is an ordinary
     * query, with the time limit, the out-of-memory mapping and the connection given back
     * between chunks, so a slow reader holds no connection and no sort of the whole list sits
     * in DuckDB's memory. Each chunk must hold exactly the rows its days counted (the file is
     * immutable): a shortfall fails the list rather than shortening it.
     */
    async *transactionChunks(userId, filters) {
      type Row = TransactionRecord & Record<string, unknown>;
      const { where, params } = matching(userId, filters);
      const n = params.length;
      const days = await db.queryJson<{ date: string; count: number }>(
        dayCountsSql(where),
        params,
        'r.date DESC',
      );
      let at = 0;
      while (at < days.length) {
        const newest = days[at] as { date: string; count: number };
        if (newest.count > LIST_CHUNK_ROWS) {
          // A day of more rows than a chunk: by id, a chunk at a time.
          let read = 0;
          let after: string | null = null;
          for (;;) {
            const rows: Row[] = await db.query<Row>(dayPageSql(where, n), [
              ...params,
              newest.date,
              after,
              LIST_CHUNK_ROWS,
            ]);
            read += rows.length;
            if (rows.length > 0) yield rows;
            if (rows.length < LIST_CHUNK_ROWS) break;
            after = (rows.at(-1) as Row).id;
          }
          expectRows(read, newest.count, newest.date, newest.date);
          at++;
          continue;
        }
        // Whole days, newest first, while they fit in a chunk.
        let count = 0;
        let end = at;
        while (
          end < days.length &&
          count + (days[end] as { count: number }).count <= LIST_CHUNK_ROWS
        ) {
          count += (days[end] as { count: number }).count;
          end++;
        }
        const oldest = days[end - 1] as { date: string };
        const rows = await db.query<Row>(daysSql(where, n), [...params, oldest.date, newest.date]);
        expectRows(rows.length, count, oldest.date, newest.date);
        yield rows;
        at = end;
      }
    },

    // Rows as one JSON text (DuckDbPool.queryJson): a page of 100 is 1,400 values.
    transactionsById: (userId, after, limit) =>
      db.queryJson<TransactionRecord>(BY_ID_SQL, [userId, after, limit], 'r.id'),

    async transactionChanges(userId, range) {
      const rows = await db.query<{ id: string; before: string | null; after: string | null }>(
        CHANGES_SQL,
        [userId, range.from, range.to, range.after, range.limit],
      );
      return rows.map(changeOf);
    },

    async transaction(userId, id) {
      const [row] = await db.query<TransactionRecord & Record<string, unknown>>(ONE_SQL, [
        userId,
        id,
      ]);
      return row ?? null;
    },
  };
}
