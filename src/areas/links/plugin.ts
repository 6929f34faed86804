import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LINK_STATUSES, LINK_TYPES } from '../../domain/taxonomy.ts';
import { queryObject } from '../../http/fastapi/index.ts';
import { paginated, paginationFields, paginationQuery } from '../../http/pagination.ts';
import { protectedResponses, validationResponse } from '../../http/schemas.ts';

const timestamp = (description: string) =>
  z.string().meta({
    description: `${description} ISO 8601 date-time as stored, without a zone (UTC).`,
    examples: ['2026-01-31T09:15:00'],
  });

export const Link = z
  .object({
    id: z.string().meta({ description: 'Link id.' }),
    type: z.enum(LINK_TYPES).meta({
      description:
        '`institution` (a bank, card issuer, broker, ...) or `payroll` (a payroll provider).',
    }),
    name: z.string().meta({ description: 'Institution or payroll provider name.' }),
    status: z.enum(LINK_STATUSES).meta({ description: 'Connection status.' }),
    created_at: timestamp('When the link was created.'),
    last_synced_at: timestamp('Last successful synchronisation.').nullable(),
    account_ids: z
      .array(z.string())
      .meta({ description: 'Ids of the link’s accounts, ascending.' }),
  })
  .meta({ id: 'Link', description: 'A connected financial institution or payroll provider.' });

export const LinkListResponse = z
  .object({
    ...paginationFields,
    links: z.array(Link).meta({ description: 'Links, oldest first (created_at, then id).' }),
  })
  .meta({ id: 'LinkListResponse', description: 'The user’s links.' });

const LinkListQuery = queryObject(paginationQuery);

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

type LinkRow = z.infer<typeof Link>;

export const linksPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/links',
    {
      schema: {
        summary: 'List links',
        description:
          'The user’s connected institutions and payroll providers, each with its accounts’ ids. ' +
          'Without `page` or `page_size` every link is returned and `next`/`previous` are null; with either, the list is paginated as transactions are.',
        tags: ['links'],
        querystring: LinkListQuery,
        response: { 200: LinkListResponse, ...protectedResponses, ...validationResponse },
      },
    },
    async (request) => {
      const { rows, ...list } = await paginated(
        request.url,
        request.query,
        ({ limit, offset }) => app.store.query<LinkRow>(LINKS_SQL, [request.userId, limit, offset]),
        async () => {
          const [row] = await app.store.query<{ count: string }>(COUNT_SQL, [request.userId]);
          return Number(row?.count ?? 0);
        },
      );
      return {
        ...list,
        links: rows.map((row) => ({
          ...row,
          created_at: isoTimestamp(row.created_at),
          last_synced_at: row.last_synced_at === null ? null : isoTimestamp(row.last_synced_at),
        })),
      };
    },
  );
};

/** pydantic's rendering of a naive datetime: fractional seconds only when there are any. */
function isoTimestamp(text: string): string {
  return text.replace(/\.0{6}$/, '');
}
