/** The user's accounts and their balance snapshots: accounts, balances, history, liabilities. */

import { type AccountType, LIABILITY_ACCOUNT_TYPES } from '../../domain/taxonomy.ts';
import type {
  AccountRecord,
  BalancePointRecord,
  LatestBalanceRecord,
  LiabilityRecord,
} from '../../port/read-port.ts';
import { sqlString } from '../sql/literals.ts';
import type { DuckDbPool } from './pool.ts';

/** An SQL list of account types, for `type IN (...)`. */
const accountTypesSql = (types: readonly AccountType[]) => types.map(sqlString).join(', ');

/**
 * A subquery (in parentheses) holding the latest balance snapshot of each account of the user
 * ($1), or only of its accounts of the given types: `account_id` and the given columns of
 * `balances`, to LEFT JOIN on `account_id`. Ties on as_of cannot occur: one row a day.
 */
function latestBalancesSql(
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

/** $1 user. */
const ACCOUNTS_SQL = `
  SELECT id, link_id, name, mask, type, subtype, currency
  FROM accounts WHERE user_id = $1 ORDER BY id`;

export function accounts(db: DuckDbPool, userId: string): Promise<AccountRecord[]> {
  return db.query<AccountRecord & Record<string, unknown>>(ACCOUNTS_SQL, [userId]);
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

export function latestBalances(db: DuckDbPool, userId: string): Promise<LatestBalanceRecord[]> {
  return db.query<LatestBalanceRecord & Record<string, unknown>>(LATEST_BALANCES_SQL, [userId]);
}

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

export function balanceHistory(
  db: DuckDbPool,
  userId: string,
  days: readonly string[],
): Promise<BalancePointRecord[]> {
  return db.query<BalancePointRecord & Record<string, unknown>>(BALANCE_HISTORY_SQL, [
    userId,
    days,
  ]);
}

/** $1 user. */
const LIABILITIES_SQL = `
  SELECT a.id AS account_id, a.name AS account_name, a.type AS account_type,
         a.subtype AS account_subtype, l.kind, l.apr, l.minimum_payment, l.next_payment_due_date,
         l.last_payment_amount, l.last_payment_date, l.original_principal,
         b.current AS current_balance, b.as_of
  FROM accounts a
  LEFT JOIN liabilities l ON l.account_id = a.id
  LEFT JOIN ${latestBalancesSql(['current', 'as_of'], LIABILITY_ACCOUNT_TYPES)} b
    ON b.account_id = a.id
  WHERE a.user_id = $1 AND a.type IN (${accountTypesSql(LIABILITY_ACCOUNT_TYPES)})
  ORDER BY a.id`;

export function liabilities(db: DuckDbPool, userId: string): Promise<LiabilityRecord[]> {
  return db.query<LiabilityRecord & Record<string, unknown>>(LIABILITIES_SQL, [userId]);
}
