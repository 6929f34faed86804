import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorDetail, transportResponses } from '../../http/schemas.ts';

const Health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
const Readiness = z
  .object({ status: z.literal('ready'), store_generation: z.string() })
  .meta({ id: 'Readiness' });

/**
 * Probes for orchestrators: liveness never touches the store, readiness runs a query on it.
 * Both answer HEAD too (the same status and headers, no body), for load balancers that probe
 * with it; every other route keeps FastAPI's 405 on HEAD (server-options.ts).
 */
export const healthPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      exposeHeadRoute: true,
      schema: {
        operationId: 'getLiveness',
        summary: 'Liveness probe',
        tags: ['operations'],
        security: [],
        response: { 200: Health, ...transportResponses },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      config: { public: true },
      exposeHeadRoute: true,
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness probe: the store answers a query',
        tags: ['operations'],
        security: [],
        response: { 200: Readiness, ...transportResponses, 503: ErrorDetail },
      },
    },
    async (request) => {
      await request.store.ping();
      return { status: 'ready' as const, store_generation: request.store.generation };
    },
  );
};
