import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STORE_RETRY_AFTER_SECONDS } from '../../http/errors.ts';
import { ErrorDetail, transportResponses } from '../../http/schemas.ts';
import { PartsUnavailableError, StoreUnavailableError } from '../../port/read-port.ts';

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
      // HEAD is served (exposeHeadRoute) and documented (swagger.exposeHeadRoute).
      config: { public: true, swagger: { exposeHeadRoute: true } },
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
      config: { public: true, swagger: { exposeHeadRoute: true } },
      exposeHeadRoute: true,
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness probe: the store answers a query',
        tags: ['operations'],
        security: [],
        response: { 200: Readiness, ...transportResponses, 503: ErrorDetail },
      },
    },
    async (request, reply) => {
      try {
        await request.store.ping();
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        // Names what is missing (a cluster's shard), never how to reach it.
        request.server.faultLog.warn(request.log, 'not ready', error);
        const missing = error instanceof PartsUnavailableError ? `: ${error.message}` : '';
        return reply
          .code(503)
          .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
          .send({ detail: `Service Unavailable${missing}` });
      }
      return { status: 'ready' as const, store_generation: request.store.generation };
    },
  );
};
