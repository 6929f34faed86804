import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LINK_STATUSES, LINK_TYPES } from '../../domain/taxonomy.ts';
import { queryObject } from '../../http/fastapi/index.ts';
import { paginated, paginationFields, paginationQuery } from '../../http/pagination.ts';
import { protectedResponses, validationResponse } from '../../http/schemas.ts';

const timestamp = (description: string) =>
  z.string().meta({
    description: `${description} ISO 8601 date-time in UTC, with its \`Z\`.`,
    examples: ['2026-01-31T09:15:00Z'],
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

export const linksPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/links',
    {
      schema: {
        operationId: 'listLinks',
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
      const { rows, ...list } = await paginated(request, (page) =>
        request.store.links(request.userId, page),
      );
      return { ...list, links: rows };
    },
  );
};
