/** The user's profile and accounts, and whether a user exists (authentication). */
import type { AccountRecord, StoreAdapter, UserProfile, UserReads } from '../../port/read-port.ts';
import type { PgPool } from './pool.ts';

/** The statements of schema `s`. */
export function userReads(db: PgPool, s: string): UserReads & Pick<StoreAdapter, 'userExists'> {
  const profileSql = `SELECT id, name, email, phone FROM ${s}.users WHERE id = $1`;
  const accountsSql = `SELECT id, link_id, name, mask, type, subtype, currency
     FROM ${s}.accounts WHERE user_id = $1 ORDER BY id`;
  const existsSql = `SELECT 1 AS found FROM ${s}.users WHERE id = $1`;
  return {
    async profile(userId) {
      const [user] = await db.query<UserProfile & Record<string, unknown>>(profileSql, [userId]);
      return user ?? null;
    },
    accounts: (userId) => db.query<AccountRecord & Record<string, unknown>>(accountsSql, [userId]),
    async userExists(userId) {
      const rows = await db.query(existsSql, [userId]);
      return rows.length > 0;
    },
  };
}
