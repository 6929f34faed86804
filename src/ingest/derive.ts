/**
 * Columns build-db derives and stores next to the contract's transaction columns, so the
 * spending query neither joins accounts nor evaluates the platform patterns per request:
 *
 * - `account_user_id`, `account_type`, `account_link_id`: the transaction's account row's
 *   user, type and link, copied (facts, not rules: the query still applies its own rules);
 * - `to_platform`: whether a DEBIT names an investment platform (platforms.ts). DuckDB compiles
 *   the patterns on every execution of a prepared statement, a fixed few milliseconds per
 *   request whatever the user's size; stored, it costs nothing at query time.
 *
 * The flag depends on the platform list in the code, so the store records a fingerprint of the
 * expression (`store_meta.platform_rules`); a server whose rules differ refuses the store
 * (contract/store-format.ts).
 */

import {
  MONTHLY_MIN_DENSITY,
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../contract/derived.ts';
import { countedRowSql } from '../sql/counted.ts';
import { toPlatformSql } from '../sql/platform.ts';

export interface DerivedColumn {
  name: string;
  /** DuckDB type of the stored column. */
  type: string;
  /** Over the cast transaction row `t` and its account row `a` (LEFT JOIN: NULL when absent). */
  expression: string;
}

export const DERIVED_TRANSACTION_COLUMNS: readonly DerivedColumn[] = [
  { name: 'account_user_id', type: 'VARCHAR', expression: 'a.user_id' },
  { name: 'account_type', type: 'account_type', expression: 'a.type' },
  { name: 'account_link_id', type: 'VARCHAR', expression: 'a.link_id' },
  { name: 'to_platform', type: 'BOOLEAN NOT NULL', expression: toPlatformSql('t') },
];

/**
 * The spending rollups. `spending_daily`: per user, day, account and every column the spending
 * rules, entries and breakdowns read, the totals of the rows that spending rules 1-4 leave (not
 * hidden, not an internal transfer, not on an investment account, on an account of the user's
 * own), with what the answer needs of single rows: the group's largest row (largest amount,
 * then smallest id: its rows share their day) and every amount (is_recurring reads them).
 * A heavy user's year is about 47,000 groups instead of 430,000 transactions; a typical user's
 * barely fewer than its rows.
 *
 * `spending_monthly`: the same per calendar month, from the daily groups, with the days the
 * group has rows on and its largest row's day (largest amount, then latest day, then smallest
 * id), for the users whose months hold at least MONTHLY_MIN_DENSITY times fewer groups than
 * their days (`spending_monthly_users`). A window's whole months are read from it and its
 * partial months from the daily rollup: the heavy user's year becomes about 5,000 groups (51 ms
 * of CPU to 21 ms), while for a typical user, whose months are barely fewer groups than its
 * days, reading two tables would cost a third more. Rows of one user are stored together, in
 * date order, so a read touches few blocks.
 */

/** The daily rollup's rows of the transactions `from` (a table, or a filtered query of one). */
const dailyRollupSelect = (from: string) => `
SELECT user_id, transacted_at AS day, account_id, account_link_id, direction, category,
  merchant_name, subcategory, to_platform,
  sum(amount) AS amount, count(*) AS count, max(amount) AS max_amount,
  arg_min({'id': id, 'description': description, 'merchant_category_code': merchant_category_code},
    {'amount': -amount, 'id': id}) AS largest,
  list(amount) AS amounts
FROM ${from}
WHERE account_user_id = user_id AND ${countedRowSql()}
GROUP BY ALL
ORDER BY user_id, day`;

/** The monthly rollup's rows of the daily rows `from`, for the users of the monthly rollup. */
const monthlyRollupSelect = (from: string, users = SPENDING_MONTHLY_USERS_TABLE) => `
SELECT user_id, date_trunc('month', day)::DATE AS month, account_id, account_link_id, direction,
  category, merchant_name, subcategory, to_platform,
  sum(amount) AS amount, sum(count) AS count, max(max_amount) AS max_amount,
  arg_min({'id': largest.id, 'description': largest.description,
      'merchant_category_code': largest.merchant_category_code, 'day': day},
    {'amount': -max_amount, 'day': -(day - DATE '1970-01-01'), 'id': largest.id}) AS largest,
  list(day ORDER BY day) AS days,
  flatten(list(amounts)) AS amounts
FROM ${from}
WHERE user_id IN (SELECT user_id FROM ${users})
GROUP BY ALL
ORDER BY user_id, month`;

export const SPENDING_ROLLUP_SQL = [
  `CREATE TABLE ${SPENDING_DAILY_TABLE} AS ${dailyRollupSelect('transactions')}`,
  `
CREATE TABLE ${SPENDING_MONTHLY_USERS_TABLE} AS
WITH days AS (SELECT user_id, count(*) AS groups FROM ${SPENDING_DAILY_TABLE} GROUP BY ALL),
months AS (
  SELECT user_id, count(*) AS groups FROM (
    SELECT DISTINCT user_id, date_trunc('month', day), account_id, account_link_id, direction,
      category, merchant_name, subcategory, to_platform
    FROM ${SPENDING_DAILY_TABLE})
  GROUP BY ALL)
SELECT user_id FROM days JOIN months USING (user_id)
WHERE days.groups >= ${MONTHLY_MIN_DENSITY} * months.groups
ORDER BY user_id`,
  `CREATE TABLE ${SPENDING_MONTHLY_TABLE} AS ${monthlyRollupSelect(SPENDING_DAILY_TABLE)}`,
];

/**
 * The rollups brought up to date after a change set, in `schema`: the daily groups of the
 * (user_id, day) pairs in `days` and the monthly groups of the (user_id, month) pairs in
 * `months` are derived again from the changed transactions; the users of `removedUsers` leave
 * the monthly rollup's users. Which users the monthly rollup serves is decided by a full build
 * (a change set keeps it): it is a choice of speed, every answer is the same either way.
 */
export function spendingRollupUpdateSql(
  schema: string,
  days: string,
  months: string,
  removedUsers: string,
): string[] {
  const daily = `${schema}.${SPENDING_DAILY_TABLE}`;
  const monthly = `${schema}.${SPENDING_MONTHLY_TABLE}`;
  return [
    `DELETE FROM ${daily} r USING ${days} x WHERE r.user_id = x.user_id AND r.day = x.day`,
    `INSERT INTO ${daily} ${dailyRollupSelect(
      `(SELECT t.* FROM ${schema}.transactions t SEMI JOIN ${days} x ON t.user_id = x.user_id AND t.transacted_at = x.day)`,
    )}`,
    `DELETE FROM ${monthly} r USING ${months} x WHERE r.user_id = x.user_id AND r.month = x.month`,
    `DELETE FROM ${schema}.${SPENDING_MONTHLY_USERS_TABLE} WHERE user_id IN (SELECT id FROM ${removedUsers})`,
    `INSERT INTO ${monthly} ${monthlyRollupSelect(
      `(SELECT r.* FROM ${daily} r SEMI JOIN ${months} x ON r.user_id = x.user_id AND date_trunc('month', r.day)::DATE = x.month)`,
      `${schema}.${SPENDING_MONTHLY_USERS_TABLE}`,
    )}`,
  ];
}
