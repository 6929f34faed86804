import { foldedColumn } from '../../contract/derived.ts';
import { CHANGE_LOG_TABLE } from '../../contract/tables.ts';
import { changeOf } from '../../port/change-log.ts';
import {
  type DailyTotalRecord,
  LIST_CHUNK_ROWS,
  type TransactionFilters,
  type TransactionReads,
  type TransactionRecord,
} from '../../port/read-port.ts';
import { investmentAccountSql } from '../../sql/counted.ts';
import type { SqlParam } from '../../sql/statement.ts';
import type { PgPool } from './pool.ts';

/**
 * $1 user, $2/$3 transacted_at bounds (NULL: open), $4 account ids, $5 link id ('' none),
 * $6 categories, $7 direction ('' none), $8/$9 amount bounds (NULL: open), $10 the text folded
 * by foldCase ('' none). Each statement is planned for its values, so the unused conditions
 * fold away and the rest run on the user's shard. The account's link is the one build-db
 * copied onto the transaction (NULL when the account is not the user's, as the DuckDB
 * subquery). The text is matched against the columns the loader folded with DuckDB's lower(),
 * the very folding of the query (PostgreSQL's lower() is another Unicode version's, or ASCII
 * only under the "C" collation). A
 * NULL merchant name makes its strpos NULL, which a WHERE treats as false (a coalesce would
 * keep the condition off the shard).
 */
const matching = () => {
  const description = `t.${foldedColumn('description')}`;
  const merchantName = `t.${foldedColumn('merchant_name')}`;
  return `
  t.user_id = $1
  AND ($2::date IS NULL OR t.transacted_at >= $2::date)
  AND ($3::date IS NULL OR t.transacted_at <= $3::date)
  AND (cardinality($4::text[]) = 0 OR t.account_id = ANY($4::text[]))
  AND ($5::text = '' OR t.account_link_id = $5::text)
  AND (cardinality($6::text[]) = 0 OR t.category = ANY($6::text[]))
  AND ($7::text = '' OR t.direction = $7::text)
  AND ($8::numeric IS NULL OR t.amount >= $8::numeric)
  AND ($9::numeric IS NULL OR t.amount <= $9::numeric)
  AND ($10::text = '' OR strpos(${description}, $10::text) > 0
       OR strpos(${merchantName}, $10::text) > 0)`;
};

const COLUMNS = `t.id, t.external_id, t.account_id, t.transacted_at, t.amount, t.direction,
  t.description, t.merchant_name, t.category, t.subcategory, t.merchant_category_code,
  t.is_hidden, t.is_internal_transfer, ${investmentAccountSql('t')} AS is_investment_account`;

/**
 * The statements of schema `s`, and of the change log in its lineage's data schema
 * (`dataSchema`; null: a cluster without one).
 */
export function transactionReads(
  db: PgPool,
  s: string,
  dataSchema: string | null,
): TransactionReads {
  const where = matching();
  // $1 user, $2 the last id read (NULL: from the first), $3 how many.
  const byIdSql = `SELECT ${COLUMNS} FROM ${s}.transactions t
      WHERE t.user_id = $1 AND ($2::text IS NULL OR t.id > $2::text) ORDER BY t.id LIMIT $3`;
  // Net changes over change sets $2 (exclusive) to $3, ids after $4, $5 at most: each as it
  // was before the range's first entry and after its last (one pushed-down aggregate).
  const changesSql =
    dataSchema === null
      ? null
      : `SELECT id, before, after FROM (
             SELECT l.id, (array_agg(l.before ORDER BY l.seq))[1] AS before,
               (array_agg(l.after ORDER BY l.seq DESC))[1] AS after
             FROM ${dataSchema}.${CHANGE_LOG_TABLE} l
             WHERE l.user_id = $1 AND l.seq > $2::integer AND l.seq <= $3::integer
               AND ($4::text IS NULL OR l.id > $4::text)
             GROUP BY l.user_id, l.id) c
           WHERE before IS DISTINCT FROM after ORDER BY id LIMIT $5`;
  const pageSql = `SELECT ${COLUMNS} FROM ${s}.transactions t WHERE ${where}
      ORDER BY t.transacted_at DESC, t.id DESC LIMIT $11 OFFSET $12`;
  // The unpaginated list, a chunk at a time: $11 chunk size, $12/$13 the last row read.
  const afterSql = `SELECT ${COLUMNS} FROM ${s}.transactions t WHERE ${where}
      AND ($12::date IS NULL OR t.transacted_at < $12::date
           OR (t.transacted_at = $12::date AND t.id < $13::text))
      ORDER BY t.transacted_at DESC, t.id DESC LIMIT $11`;
  const oneSql = `SELECT ${COLUMNS} FROM ${s}.transactions t WHERE t.user_id = $1 AND t.id = $2`;
  // The page's days (from its oldest, $11, to its newest, $12), each over every match.
  const dailyTotalsSql = `
      SELECT t.transacted_at AS date,
             coalesce(sum(t.amount) FILTER (WHERE t.direction = 'DEBIT'), 0) AS debits,
             coalesce(sum(t.amount) FILTER (WHERE t.direction = 'CREDIT'), 0) AS credits,
             count(*) AS count
      FROM ${s}.transactions t
      WHERE ${where} AND t.transacted_at BETWEEN $11::date AND $12::date
      GROUP BY t.user_id, t.transacted_at`;
  const countSql = `SELECT count(*) AS count FROM ${s}.transactions t WHERE ${where} GROUP BY t.user_id`;

  const transactionCount = async (userId: string, filters: TransactionFilters) => {
    const [row] = await db.query<{ count: string }>(countSql, matchingParams(userId, filters));
    return Number(row?.count ?? 0);
  };

  return {
    transactionCount,

    async transactions(userId, filters, page) {
      const params = matchingParams(userId, filters);
      const [rows, total] = await Promise.all([
        db.query<TransactionRecord & Record<string, unknown>>(pageSql, [
          ...params,
          page.limit,
          page.offset,
        ]),
        page.limit === null ? null : transactionCount(userId, filters),
      ]);
      const newest = rows[0];
      const oldest = rows.at(-1);
      const daily =
        newest && oldest
          ? await db.query<{ date: string; debits: string; credits: string; count: string }>(
              dailyTotalsSql,
              [...params, oldest.transacted_at, newest.transacted_at],
            )
          : [];
      return {
        rows,
        total: total ?? rows.length,
        // Sorted here: an ORDER BY would keep the planner from summing on the shard.
        dailyTotals: daily
          .map((row): DailyTotalRecord => ({ ...row, count: Number(row.count) }))
          .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)),
      };
    },

    /**
     * Keyset chunks, newest first: each chunk resumes after the last row of the one before,
     * and is one statement (the time limit applies to each; the connection goes back between
     * them).
     */
    async *transactionChunks(userId, filters) {
      const params = matchingParams(userId, filters);
      let last: TransactionRecord | undefined;
      for (;;) {
        const rows = await db.query<TransactionRecord & Record<string, unknown>>(afterSql, [
          ...params,
          LIST_CHUNK_ROWS,
          last?.transacted_at ?? null,
          last?.id ?? null,
        ]);
        if (rows.length > 0) yield rows;
        if (rows.length < LIST_CHUNK_ROWS) return;
        last = rows.at(-1);
      }
    },

    transactionsById: (userId, after, limit) =>
      db.query<TransactionRecord & Record<string, unknown>>(byIdSql, [userId, after, limit]),

    async transactionChanges(userId, range) {
      if (changesSql === null) return [];
      const rows = await db.query<{ id: string; before: string | null; after: string | null }>(
        changesSql,
        [userId, range.from, range.to, range.after, range.limit],
      );
      return rows.map(changeOf);
    },

    async transaction(userId, id) {
      const [row] = await db.query<TransactionRecord & Record<string, unknown>>(oneSql, [
        userId,
        id,
      ]);
      return row ?? null;
    },
  };
}

/** The parameters of the matching conditions, in order. */
function matchingParams(userId: string, filters: TransactionFilters): SqlParam[] {
  return [
    userId,
    filters.from,
    filters.to,
    filters.accountIds,
    filters.linkId ?? '',
    filters.categories,
    filters.direction ?? '',
    filters.minAmount,
    filters.maxAmount,
    filters.text ?? '',
  ];
}
