/** The user's balance snapshots: each account's latest, and their history. */
import { compareCodePoints } from '../../domain/money.ts';
import type {
  BalancePointRecord,
  LatestBalanceRecord,
  StoreAdapter,
} from '../../port/read-port.ts';
import type { PgPool } from './pool.ts';

/** The latest snapshot of each of the user's ($1) accounts: one row a day, so no ties. */
export const latestSql = (s: string, columns: string) => `(
  SELECT DISTINCT ON (account_id) account_id, ${columns}
  FROM ${s}.balances WHERE user_id = $1
  ORDER BY account_id, as_of DESC)`;

interface Snapshot {
  account_id: string;
  as_of: string;
  current: string | null;
}

/**
 * The statements of schema `s`. The history's as-of match is a walk over the user's accounts
 * and snapshots: the snapshots up to the last day come from the shard in one scan, oldest
 * first (a lateral join would ask the shard once per day and account).
 */
export function balanceReads(
  db: PgPool,
  s: string,
): Pick<StoreAdapter, 'latestBalances' | 'balanceHistory'> {
  const latestBalancesSql = `SELECT a.id AS account_id, a.link_id, a.name, a.mask, a.type, a.subtype, a.currency,
            b.current, b.available, b.credit_limit, b.as_of
     FROM ${s}.accounts a
     LEFT JOIN ${latestSql(s, 'current, available, credit_limit, as_of')} b ON b.account_id = a.id
     WHERE a.user_id = $1
     ORDER BY a.id`;
  const snapshotsSql = `SELECT account_id, as_of, current FROM ${s}.balances
     WHERE user_id = $1 AND as_of <= $2::date ORDER BY account_id, as_of`;
  return {
    latestBalances: (userId) =>
      db.query<LatestBalanceRecord & Record<string, unknown>>(latestBalancesSql, [userId]),

    async balanceHistory(userId, days, accounts) {
      const userAccounts = await accounts();
      const last = days.at(-1);
      if (last === undefined || userAccounts.length === 0) return [];
      const snapshots = await db.query<Snapshot & Record<string, unknown>>(snapshotsSql, [
        userId,
        last,
      ]);
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
    },
  };
}
