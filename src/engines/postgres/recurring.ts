/**
 * What recurring streams read on the sharded cluster (port/recurring.ts): the user's counted
 * rows (spending rules 1, 3 and 4) up to a day, in the link and account scope, grouped by raw
 * key or listed for the keys that form streams. Each statement names one user, so its scan runs
 * on the user's shard with every condition. Grouping by the raw key (the description only for
 * rows without a merchant name) is an expression postgres_fdw does not push down: the shard
 * sends the counted rows' grouped columns and the coordinator groups them (splitting the
 * named and the nameless rows into two plain groupings was no faster on the demo user). A
 * merchant name is tested with IS NULL and = '' (a coalesce would keep the condition off the
 * shard). The domain keys, merges and judges the rows (domain/recurring/).
 */
import type { RawKeyDays, RecurringRow, RecurringScope } from '../../domain/recurring/model.ts';
import type { RecurringReads } from '../../port/recurring.ts';
import { countedRowSql } from '../../sql/counted.ts';
import type { PgPool, SqlParam } from './pool.ts';

/** $1 user, $2 the last day, $3 link ('' none), $4 account ids (empty: all). */
const COUNTED = `t.user_id = $1 AND t.transacted_at <= $2::date AND ${countedRowSql('t')}
    AND ($3::text = '' OR t.account_link_id = $3::text)
    AND (cardinality($4::text[]) = 0 OR t.account_id = ANY($4::text[]))`;

/** The description groups only the rows without a merchant name (null or empty). */
const keyDaysSql = (s: string) => `
  SELECT t.direction, t.merchant_name,
    CASE WHEN t.merchant_name IS NULL OR t.merchant_name = '' THEN t.description END AS description,
    t.to_platform, array_agg(DISTINCT t.transacted_at) AS dates
  FROM ${s}.transactions t
  WHERE ${COUNTED}
  GROUP BY t.user_id, t.direction, t.merchant_name,
    CASE WHEN t.merchant_name IS NULL OR t.merchant_name = '' THEN t.description END, t.to_platform`;

/** $5 merchant names, $6 descriptions of the rows without one. */
const rowsSql = (s: string) => `
  SELECT t.id, t.account_id, t.transacted_at, t.amount, t.direction, t.merchant_name,
    t.description, t.category, t.subcategory, t.to_platform
  FROM ${s}.transactions t
  WHERE ${COUNTED}
    AND (t.merchant_name = ANY($5::text[])
         OR ((t.merchant_name IS NULL OR t.merchant_name = '') AND t.description = ANY($6::text[])))`;

const scopeParams = (scope: RecurringScope): SqlParam[] => [
  scope.userId,
  scope.through,
  scope.linkId ?? '',
  scope.accountIds,
];

/** The statements of schema `s`. */
export function recurringReads(db: PgPool, s: string): RecurringReads {
  const keyDays = keyDaysSql(s);
  const rows = rowsSql(s);
  return {
    recurringKeyDays: (scope) =>
      db.query<RawKeyDays & Record<string, unknown>>(keyDays, scopeParams(scope)),
    recurringRows: (scope, texts) =>
      db.query<RecurringRow & Record<string, unknown>>(rows, [
        ...scopeParams(scope),
        texts.merchantNames,
        texts.descriptions,
      ]),
  };
}
