/** The user's accounts and their balance snapshots: accounts, balances, history, liabilities. */
import { compareCodePoints } from '../../domain/money.ts';
import { LIABILITY_ACCOUNT_TYPES } from '../../domain/taxonomy.ts';
import type {
  AccountRecord,
  BalancePointRecord,
  LatestBalanceRecord,
  LiabilityRecord,
} from '../../port/read-port.ts';
import type { PgPool } from './pool.ts';

export function accounts(db: PgPool, s: string, userId: string): Promise<AccountRecord[]> {
  return db.query<AccountRecord & Record<string, unknown>>(
    `SELECT id, link_id, name, mask, type, subtype, currency
     FROM ${s}.accounts WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
}

/** The latest snapshot of each of the user's ($1) accounts: one row a day, so no ties. */
const latestSql = (s: string, columns: string) => `(
  SELECT DISTINCT ON (account_id) account_id, ${columns}
  FROM ${s}.balances WHERE user_id = $1
  ORDER BY account_id, as_of DESC)`;

export function latestBalances(
  db: PgPool,
  s: string,
  userId: string,
): Promise<LatestBalanceRecord[]> {
  return db.query<LatestBalanceRecord & Record<string, unknown>>(
    `SELECT a.id AS account_id, a.link_id, a.name, a.mask, a.type, a.subtype, a.currency,
            b.current, b.available, b.credit_limit, b.as_of
     FROM ${s}.accounts a
     LEFT JOIN ${latestSql(s, 'current, available, credit_limit, as_of')} b ON b.account_id = a.id
     WHERE a.user_id = $1
     ORDER BY a.id`,
    [userId],
  );
}

const LIABILITY_TYPES = LIABILITY_ACCOUNT_TYPES.map((type) => `'${type}'`).join(', ');

export function liabilities(db: PgPool, s: string, userId: string): Promise<LiabilityRecord[]> {
  return db.query<LiabilityRecord & Record<string, unknown>>(
    `SELECT a.id AS account_id, a.name AS account_name, a.type AS account_type,
            a.subtype AS account_subtype, l.kind, l.apr, l.minimum_payment,
            l.next_payment_due_date, l.last_payment_amount, l.last_payment_date,
            l.original_principal, b.current AS current_balance, b.as_of
     FROM ${s}.accounts a
     LEFT JOIN ${s}.liabilities l ON l.account_id = a.id AND l.user_id = $1
     LEFT JOIN ${latestSql(s, 'current, as_of')} b ON b.account_id = a.id
     WHERE a.user_id = $1 AND a.type IN (${LIABILITY_TYPES})
     ORDER BY a.id`,
    [userId],
  );
}

interface Snapshot {
  account_id: string;
  as_of: string;
  current: string | null;
}

/**
 * For every (day, account of the user): the latest snapshot on or before that day. The user's
 * snapshots up to the last day come from the shard in one scan, oldest first; the as-of match
 * is a walk over them (a lateral join would ask the shard once per day and account).
 */
export async function balanceHistory(
  db: PgPool,
  s: string,
  userId: string,
  days: readonly string[],
  userAccounts: readonly AccountRecord[],
): Promise<BalancePointRecord[]> {
  const last = days.at(-1);
  if (last === undefined || userAccounts.length === 0) return [];
  const snapshots = await db.query<Snapshot & Record<string, unknown>>(
    `SELECT account_id, as_of, current FROM ${s}.balances
     WHERE user_id = $1 AND as_of <= $2::date ORDER BY account_id, as_of`,
    [userId, last],
  );
  const byAccount = new Map<string, Snapshot[]>();
  for (const snapshot of snapshots) {
    const list = byAccount.get(snapshot.account_id) ?? [];
    list.push(snapshot);
    byAccount.set(snapshot.account_id, list);
  }
  const ordered = [...userAccounts].sort((a, b) => compareCodePoints(a.id, b.id));
  const points: BalancePointRecord[] = [];
  const cursors = new Map<string, number>();
  for (const day of days) {
    for (const account of ordered) {
      const list = byAccount.get(account.id) ?? [];
      let at = cursors.get(account.id) ?? -1;
      while (at + 1 < list.length && (list[at + 1] as Snapshot).as_of <= day) at++;
      cursors.set(account.id, at);
      const snapshot = at >= 0 ? list[at] : undefined;
      points.push({
        end_date: day,
        account_id: account.id,
        type: account.type,
        current: snapshot?.current ?? null,
        as_of: snapshot?.as_of ?? null,
      });
    }
  }
  return points;
}
