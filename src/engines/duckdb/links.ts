import type { LinkReads, LinkRecord } from '../../port/read-port.ts';
import type { DuckDbPool } from './pool.ts';

/** $1 user, $2 LIMIT (null: all), $3 OFFSET. */
const LINKS_SQL = `
  SELECT l.id, l.type, l.name, l.status,
         strftime(l.created_at, '%Y-%m-%dT%H:%M:%S.%f') AS created_at,
         strftime(l.last_synced_at, '%Y-%m-%dT%H:%M:%S.%f') AS last_synced_at,
         coalesce(
           (SELECT list(a.id ORDER BY a.id) FROM accounts a WHERE a.link_id = l.id AND a.user_id = $1),
           []) AS account_ids
  FROM links l
  WHERE l.user_id = $1
  ORDER BY l.created_at, l.id
  LIMIT $2 OFFSET $3`;

const COUNT_SQL = 'SELECT count(*) AS count FROM links WHERE user_id = $1';

/**
 * Stored timestamps are UTC: ISO 8601 with an explicit `Z`, fractional seconds only when there
 * are any (as pydantic renders a datetime).
 */
const isoTimestamp = (text: string) => `${text.replace(/\.0{6}$/, '')}Z`;

export function linkReads(db: DuckDbPool): LinkReads {
  return {
    async links(userId, page) {
      const [rows, total] = await Promise.all([
        db.query<LinkRecord & Record<string, unknown>>(LINKS_SQL, [
          userId,
          page.limit,
          page.offset,
        ]),
        page.limit === null
          ? null
          : db
              .query<{ count: string }>(COUNT_SQL, [userId])
              .then(([row]) => Number(row?.count ?? 0)),
      ]);
      return {
        rows: rows.map((row) => ({
          ...row,
          created_at: isoTimestamp(row.created_at),
          last_synced_at: row.last_synced_at === null ? null : isoTimestamp(row.last_synced_at),
        })),
        total: total ?? rows.length,
      };
    },
  };
}
