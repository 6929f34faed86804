import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { balancesPlugin } from './areas/balances/plugin.ts';
import { healthPlugin } from './areas/health/plugin.ts';
import { incomePlugin } from './areas/income/plugin.ts';
import { liabilitiesPlugin } from './areas/liabilities/plugin.ts';
import { linksPlugin } from './areas/links/plugin.ts';
import { spendingPlugin } from './areas/spending/plugin.ts';
import { transactionsPlugin } from './areas/transactions/plugin.ts';
import { userPlugin } from './areas/user/plugin.ts';
import { authPlugin } from './auth/plugin.ts';
import { type Clock, createClock } from './clock.ts';
import { docsPlugin } from './http/docs.ts';
import { errorsPlugin, frameworkErrorHandler } from './http/errors.ts';
import { requestIdFor } from './http/request-id.ts';
import { validatorCompiler } from './http/validation/index.ts';
import { storePlugin } from './store/plugin.ts';
import type { Store } from './store/store.ts';

export interface AppOptions {
  store: Store;
  clock?: Clock;
  /** Fastify logger options; off by default so tests stay quiet. */
  logger?: FastifyServerOptions['logger'];
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
  }
}

const PAT_IN_TEXT = /pat_[0-9A-Za-z]+/g;

/** Pino options that never let a token reach the logs, from a header or from a query string. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.replace(PAT_IN_TEXT, 'pat_[redacted]'),
        remoteAddress: req.ip,
      }),
    },
  };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: requestIdFor,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('clock', options.clock ?? createClock());
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(storePlugin, { store: options.store });
  await app.register(authPlugin);
  await app.register(docsPlugin);
  await app.register(healthPlugin);
  await app.register(userPlugin);
  await app.register(spendingPlugin);
  await app.register(transactionsPlugin);
  await app.register(linksPlugin);
  await app.register(balancesPlugin);
  await app.register(incomePlugin);
  await app.register(liabilitiesPlugin);
  return app;
}
