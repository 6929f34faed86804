/** What change sets changed for many users at once: the change log and its record of tables. */
import {
  CHANGE_LOG_TABLE,
  CHANGED_TABLES_TABLE,
  type UserDataTable,
} from '../../contract/tables.ts';
import type { ChangeReads } from '../../port/read-port.ts';
import type { PgPool } from './pool.ts';

/**
 * $1 the users, $2 (exclusive) to $3 the change sets, of the lineage's data schema `d`. Each
 * transaction's net change as the sync feed computes it (transactions.ts), counted per user;
 * beside it the other tables recorded for the user in the range. Each bucket reads whichever
 * index is cheaper: the one led by the user for a few users, the one on `seq` (only the range's
 * entries) when many users are asked about.
 */
const userChangesSql = (d: string) => `
  WITH net AS (
    SELECT l.user_id, (array_agg(l.before ORDER BY l.seq))[1] AS before,
      (array_agg(l.after ORDER BY l.seq DESC))[1] AS after
    FROM ${d}.${CHANGE_LOG_TABLE} l
    WHERE l.user_id = ANY($1::text[]) AND l.seq > $2::integer AND l.seq <= $3::integer
    GROUP BY l.user_id, l.id),
  counts AS (
    SELECT user_id, count(*) FILTER (WHERE before IS NULL) AS added,
      count(*) FILTER (WHERE before IS NOT NULL AND after IS NOT NULL) AS modified,
      count(*) FILTER (WHERE after IS NULL) AS removed
    FROM net WHERE before IS DISTINCT FROM after GROUP BY user_id),
  tables AS (
    SELECT t.user_id, array_agg(DISTINCT t.table_name) AS tables
    FROM ${d}.${CHANGED_TABLES_TABLE} t
    WHERE t.user_id = ANY($1::text[]) AND t.seq > $2::integer AND t.seq <= $3::integer
    GROUP BY t.user_id)
  SELECT coalesce(c.user_id, t.user_id) AS user_id, coalesce(c.added, 0) AS added,
    coalesce(c.modified, 0) AS modified, coalesce(c.removed, 0) AS removed,
    coalesce(t.tables, '{}') AS tables
  FROM counts c FULL OUTER JOIN tables t ON t.user_id = c.user_id`;

/**
 * $1 (exclusive) to $2 the change sets: the users they changed anything of. Each bucket sends
 * back only the range's entries (the index on `seq`), their user ids alone.
 */
const touchedUsersSql = (d: string) => `
  SELECT user_id FROM ${d}.${CHANGE_LOG_TABLE} WHERE seq > $1::integer AND seq <= $2::integer
  UNION
  SELECT user_id FROM ${d}.${CHANGED_TABLES_TABLE} WHERE seq > $1::integer AND seq <= $2::integer`;

/**
 * Above this many users, those the range touched are read first and only they are asked
 * about: every bucket's statement carries the list of users, and 10,000 of them (32 statements
 * of 170 KB each, planned against every bucket) took 0.7 to 1.5 s where the touched 1,000 of
 * them, found first, took 0.1 to 0.2 s in all (the bench's cluster, one change set).
 */
const MANY_USERS = 1_000;

interface Row extends Record<string, unknown> {
  user_id: string;
  added: string | number;
  modified: string | number;
  removed: string | number;
  tables: UserDataTable[];
}

/** The change reads of a lineage's data schema (null: a cluster loaded before change sets). */
export function changeReads(db: PgPool, dataSchema: string | null): ChangeReads {
  const sql = dataSchema === null ? null : userChangesSql(dataSchema);
  const touchedSql = dataSchema === null ? null : touchedUsersSql(dataSchema);
  return {
    async userChanges(userIds, from, to) {
      if (sql === null || touchedSql === null || userIds.length === 0 || from >= to) return [];
      let asked = userIds;
      if (userIds.length > MANY_USERS) {
        const touched = await db.query<{ user_id: string }>(touchedSql, [from, to]);
        const wanted = new Set(userIds);
        asked = touched.map((row) => row.user_id).filter((userId) => wanted.has(userId));
        if (asked.length === 0) return [];
      }
      const rows = await db.query<Row>(sql, [asked, from, to]);
      return rows.map((row) => ({
        userId: row.user_id,
        added: Number(row.added),
        modified: Number(row.modified),
        removed: Number(row.removed),
        tables: row.tables,
      }));
    },
  };
}
