/** The user's balance snapshots: each account's latest, and their history. */
import type { AccountType } from '../../domain/taxonomy.ts';
import type {
  BalancePointRecord,
  LatestBalanceRecord,
  StoreAdapter,
} from '../../port/read-port.ts';
import { sqlString } from '../../sql/literals.ts';
import type { DuckDbPool } from './pool.ts';

/** An SQL list of account types, for `type IN (...)`. */
export const accountTypesSql = (types: readonly AccountType[]) => types.map(sqlString).join(', ');

/**
 * A subquery (in parentheses) holding the latest balance snapshot of each account of the user
 * ($1), or only of its accounts of the given types: `account_id` and the given columns of
 * `balances`, to LEFT JOIN on `account_id`. Ties on as_of cannot occur: one row a day.
 */
export function latestBalancesSql(
  columns: readonly string[],
  accountTypes?: readonly AccountType[],
): string {
  const ofTypes = accountTypes ? ` AND type IN (${accountTypesSql(accountTypes)})` : '';
  return `(
    SELECT account_id, ${columns.join(', ')}
    FROM balances
    WHERE account_id IN (SELECT id FROM accounts WHERE user_id = $1${ofTypes})
    QUALIFY row_number() OVER (PARTITION BY account_id ORDER BY as_of DESC) = 1
  )`;
}

/** Each account of the user ($1) with its latest snapshot. */
const LATEST_BALANCES_SQL = `
  SELECT a.id AS account_id, a.link_id, a.name, a.mask, a.type, a.subtype, a.currency,
         b.current, b.available, b.credit_limit, b.as_of
  FROM accounts a
  LEFT JOIN ${latestBalancesSql(['current', 'available', 'credit_limit', 'as_of'])} b
    ON b.account_id = a.id
  WHERE a.user_id = $1
  ORDER BY a.id`;

/**
 * For every (day, account of the user): the latest snapshot on or before that day.
 * $1 user, $2 the days as text.
 */
const BALANCE_HISTORY_SQL = `
  WITH days AS (SELECT unnest($2::VARCHAR[])::DATE AS end_date),
  grid AS (
    SELECT d.end_date, a.id AS account_id, a.type
    FROM days d CROSS JOIN (SELECT id, type FROM accounts WHERE user_id = $1) a)
  SELECT g.end_date, g.account_id, g.type, b.current, b.as_of
  FROM grid g
  ASOF LEFT JOIN balances b ON b.account_id = g.account_id AND g.end_date >= b.as_of
  ORDER BY g.end_date, g.account_id`;

/** The history joins the user's accounts itself: it never asks for them. */
export function balanceReads(
  db: DuckDbPool,
): Pick<StoreAdapter, 'latestBalances' | 'balanceHistory'> {
  return {
    latestBalances: (userId) =>
      db.query<LatestBalanceRecord & Record<string, unknown>>(LATEST_BALANCES_SQL, [userId]),
    balanceHistory: (userId, days) =>
      db.query<BalancePointRecord & Record<string, unknown>>(BALANCE_HISTORY_SQL, [userId, days]),
  };
}
