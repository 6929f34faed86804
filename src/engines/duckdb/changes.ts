/** What change sets changed for many users at once: the change log and its record of tables. */
import {
  CHANGE_LOG_TABLE,
  CHANGED_TABLES_TABLE,
  type UserDataTable,
} from '../../contract/tables.ts';
import type { ChangeReads } from '../../port/read-port.ts';
import type { DuckDbPool } from './pool.ts';

/**
 * $1 the users, $2 (exclusive) to $3 the change sets. Each transaction's net change as the
 * sync feed computes it (transactions.ts, CHANGES_SQL), counted per user; beside it the other
 * tables recorded for the user in the range.
 */
const USER_CHANGES_SQL = `
  WITH users AS (SELECT DISTINCT unnest($1::VARCHAR[]) AS user_id),
  net AS (
    SELECT l.user_id, first(l.before ORDER BY l.seq) AS before,
      first(l.after ORDER BY l.seq DESC) AS after
    FROM ${CHANGE_LOG_TABLE} l SEMI JOIN users u ON u.user_id = l.user_id
    WHERE l.seq > $2::INTEGER AND l.seq <= $3::INTEGER
    GROUP BY l.user_id, l.id),
  counts AS (
    SELECT user_id, count(*) FILTER (WHERE before IS NULL) AS added,
      count(*) FILTER (WHERE before IS NOT NULL AND after IS NOT NULL) AS modified,
      count(*) FILTER (WHERE after IS NULL) AS removed
    FROM net WHERE before IS DISTINCT FROM after GROUP BY user_id),
  tables AS (
    SELECT t.user_id, list(DISTINCT t.table_name) AS tables
    FROM ${CHANGED_TABLES_TABLE} t SEMI JOIN users u ON u.user_id = t.user_id
    WHERE t.seq > $2::INTEGER AND t.seq <= $3::INTEGER
    GROUP BY t.user_id)
  SELECT coalesce(c.user_id, t.user_id) AS user_id, coalesce(c.added, 0) AS added,
    coalesce(c.modified, 0) AS modified, coalesce(c.removed, 0) AS removed,
    coalesce(t.tables, []) AS tables
  FROM counts c FULL OUTER JOIN tables t ON t.user_id = c.user_id`;

interface Row extends Record<string, unknown> {
  user_id: string;
  added: string | number;
  modified: string | number;
  removed: string | number;
  tables: UserDataTable[];
}

export function changeReads(db: DuckDbPool): ChangeReads {
  return {
    async userChanges(userIds, from, to) {
      if (userIds.length === 0 || from >= to) return [];
      const rows = await db.query<Row>(USER_CHANGES_SQL, [userIds, from, to]);
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
