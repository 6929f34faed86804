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
 * entries) when many streams' users are asked about and few of them were touched.
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
  return {
    async userChanges(userIds, from, to) {
      if (sql === null || userIds.length === 0 || from >= to) return [];
      const rows = await db.query<Row>(sql, [userIds, from, to]);
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
