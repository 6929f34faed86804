import type { LinkReads, LinkRecord } from '../../port/read-port.ts';
import type { PgPool } from './pool.ts';

/**
 * Stored timestamps are UTC: ISO 8601 with an explicit `Z`, fractional seconds only when there
 * are any (as pydantic renders a datetime).
 */
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US'`;
const isoTimestamp = (text: string) => `${text.replace(/\.0{6}$/, '')}Z`;

/** $1 user, $2 LIMIT (null: all), $3 OFFSET. */
const linksSql = (s: string) => `
  SELECT id, type, name, status, to_char(created_at, ${ISO}) AS created_at,
         to_char(last_synced_at, ${ISO}) AS last_synced_at, count(*) OVER () AS total
  FROM ${s}.links
  WHERE user_id = $1
  ORDER BY created_at, id
  LIMIT $2 OFFSET $3`;

/** The ids of the user's accounts, per link, ascending. */
const accountIdsSql = (s: string) =>
  `SELECT link_id, id FROM ${s}.accounts WHERE user_id = $1 ORDER BY id`;

type LinkRow = Omit<LinkRecord, 'account_ids'> & { total: string };

/** The statements of schema `s`. */
export function linkReads(db: PgPool, s: string): LinkReads {
  const links = linksSql(s);
  const accountIds = accountIdsSql(s);
  const count = `SELECT count(*) AS count FROM ${s}.links WHERE user_id = $1`;
  return {
    async links(userId, page) {
      const [rows, accounts] = await Promise.all([
        db.query<LinkRow>(links, [userId, page.limit, page.offset]),
        db.query<{ link_id: string; id: string }>(accountIds, [userId]),
      ]);
      const idsByLink = new Map<string, string[]>();
      for (const account of accounts) {
        const ids = idsByLink.get(account.link_id) ?? [];
        ids.push(account.id);
        idsByLink.set(account.link_id, ids);
      }
      const total =
        rows.length > 0
          ? Number(rows[0]?.total)
          : page.limit === null
            ? 0
            : Number((await db.query<{ count: string }>(count, [userId]))[0]?.count ?? 0);
      return {
        rows: rows.map(({ total: _total, ...row }) => ({
          ...row,
          created_at: isoTimestamp(row.created_at),
          last_synced_at: row.last_synced_at === null ? null : isoTimestamp(row.last_synced_at),
          account_ids: idsByLink.get(row.id) ?? [],
        })),
        total,
      };
    },
  };
}
