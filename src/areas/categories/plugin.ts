/** GET /v1/categories: the category taxonomy, for building filters (`categories` parameters). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CATEGORIES } from '../../domain/taxonomy.ts';
import { protectedResponses } from '../../http/schemas.ts';

export const CategoryListResponse = z
  .object({
    categories: z
      .array(
        z
          .object({
            name: z.enum(CATEGORIES).meta({
              description: 'The name as transactions carry it and `categories` filters take it.',
            }),
          })
          .meta({ id: 'Category', description: 'One category of the taxonomy.' }),
      )
      .meta({ description: 'Every category, in the taxonomy’s order.' }),
  })
  .meta({ id: 'CategoryListResponse', description: 'The category taxonomy.' });

const BODY = { categories: CATEGORIES.map((name) => ({ name })) };

export const categoriesPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/categories',
    {
      schema: {
        operationId: 'listCategories',
        summary: 'List categories',
        description:
          'The category taxonomy every transaction belongs to: the valid values of the `categories` filters (matched case-insensitively).',
        tags: ['categories'],
        response: { 200: CategoryListResponse, ...protectedResponses },
      },
    },
    async () => BODY,
  );
};
