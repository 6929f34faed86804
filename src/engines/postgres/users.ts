import type { UserProfile } from '../../port/read-port.ts';
import type { PgPool } from './pool.ts';

export async function profile(db: PgPool, s: string, userId: string): Promise<UserProfile | null> {
  const [user] = await db.query<UserProfile & Record<string, unknown>>(
    `SELECT id, name, email, phone FROM ${s}.users WHERE id = $1`,
    [userId],
  );
  return user ?? null;
}

export async function userExists(db: PgPool, s: string, userId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 AS found FROM ${s}.users WHERE id = $1`, [userId]);
  return rows.length > 0;
}
