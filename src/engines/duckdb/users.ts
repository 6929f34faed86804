import type { TokenOwner, UserProfile } from '../../port/read-port.ts';
import type { DuckDbPool } from './pool.ts';

export async function profile(db: DuckDbPool, userId: string): Promise<UserProfile | null> {
  const [user] = await db.query<UserProfile & Record<string, unknown>>(
    'SELECT id, name, email, phone FROM users WHERE id = $1',
    [userId],
  );
  return user ?? null;
}

/** The owner of a live (not revoked) token and its expiry in epoch milliseconds, if any. */
const TOKEN_OWNER_SQL = `
  SELECT t.user_id, epoch_ms(t.expires_at) AS expires_at_ms
  FROM access_tokens t JOIN users u ON u.id = t.user_id
  WHERE t.token_hash = $1::VARCHAR AND t.revoked_at IS NULL
  LIMIT 1`;

export async function tokenOwner(db: DuckDbPool, tokenHash: string): Promise<TokenOwner | null> {
  const [row] = await db.query<{ user_id: string; expires_at_ms: string | null }>(TOKEN_OWNER_SQL, [
    tokenHash,
  ]);
  if (!row) return null;
  return {
    userId: row.user_id,
    expiresAtMs: row.expires_at_ms === null ? null : Number(row.expires_at_ms),
  };
}
