/** The user's profile and accounts, and whether a user exists (authentication). */
import type { AccountRecord, StoreAdapter, UserProfile, UserReads } from '../../port/read-port.ts';
import type { DuckDbPool } from './pool.ts';

/** $1 user. */
const ACCOUNTS_SQL = `
  SELECT id, link_id, name, mask, type, subtype, currency
  FROM accounts WHERE user_id = $1 ORDER BY id`;

export function userReads(db: DuckDbPool): UserReads & Pick<StoreAdapter, 'userExists'> {
  return {
    async profile(userId) {
      const [user] = await db.query<UserProfile & Record<string, unknown>>(
        'SELECT id, name, email, phone FROM users WHERE id = $1',
        [userId],
      );
      return user ?? null;
    },
    accounts: (userId) => db.query<AccountRecord & Record<string, unknown>>(ACCOUNTS_SQL, [userId]),
    async userExists(userId) {
      const rows = await db.query('SELECT 1 AS found FROM users WHERE id = $1', [userId]);
      return rows.length > 0;
    },
  };
}
