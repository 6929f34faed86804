/**
 * What recurring streams read on DuckDB (port/recurring.ts): the user's counted rows (spending
 * rules 1, 3 and 4) up to a day, in the link and account scope, grouped by raw key or listed for
 * the keys that form streams. The domain keys, merges and judges them (domain/recurring/).
 * Rows come as one JSON text with amounts cast to text, so they stay exact (DuckDbPool.queryJson).
 */
import type { RawKeyDays, RecurringRow, RecurringScope } from '../../domain/recurring/model.ts';
import type { RecurringReads } from '../../port/recurring.ts';
import { countedRowSql } from '../../sql/counted.ts';
import type { DuckDbPool, SqlParam } from './pool.ts';

/**
 * $1 user, $2 the last day, $3 link ('' none), $4 account ids (empty: all). Every parameter is
 * cast to its type, so the statement is prepared once (an untyped one is rebound on each run).
 */
const COUNTED = `t.user_id = $1::VARCHAR AND t.account_user_id = $1::VARCHAR
    AND t.transacted_at <= $2::VARCHAR::DATE AND ${countedRowSql('t')}
    AND ($3::VARCHAR = '' OR t.account_link_id = $3::VARCHAR)
    AND (len($4::VARCHAR[]) = 0 OR list_contains($4::VARCHAR[], t.account_id))`;

/** The description groups only the rows without a merchant name (null or empty). */
const KEY_DAYS_SQL = `
  SELECT t.direction::VARCHAR AS direction, t.merchant_name,
    CASE WHEN t.merchant_name IS NULL OR t.merchant_name = '' THEN t.description END AS description,
    t.to_platform, list(DISTINCT t.transacted_at) AS dates
  FROM transactions t
  WHERE ${COUNTED}
  GROUP BY ALL`;

/** $5 merchant names, $6 descriptions of the rows without one. */
const ROWS_SQL = `
  SELECT t.id, t.account_id, t.transacted_at, t.amount::VARCHAR AS amount,
    t.direction::VARCHAR AS direction, t.merchant_name, t.description,
    t.category::VARCHAR AS category, t.subcategory, t.to_platform
  FROM transactions t
  WHERE ${COUNTED}
    AND (list_contains($5::VARCHAR[], t.merchant_name)
         OR ((t.merchant_name IS NULL OR t.merchant_name = '') AND list_contains($6::VARCHAR[], t.description)))`;

const scopeParams = (scope: RecurringScope): SqlParam[] => [
  scope.userId,
  scope.through,
  scope.linkId ?? '',
  scope.accountIds,
];

export function recurringReads(db: DuckDbPool): RecurringReads {
  return {
    recurringKeyDays: (scope) => db.queryJson<RawKeyDays>(KEY_DAYS_SQL, scopeParams(scope)),
    recurringRows: (scope, texts) =>
      db.queryJson<RecurringRow>(ROWS_SQL, [
        ...scopeParams(scope),
        texts.merchantNames,
        texts.descriptions,
      ]),
  };
}
