import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountsPlugin } from './areas/accounts/plugin.ts';
import { balancesPlugin } from './areas/balances/plugin.ts';
import { categoriesPlugin } from './areas/categories/plugin.ts';
import { healthPlugin } from './areas/health/plugin.ts';
import { incomePlugin } from './areas/income/plugin.ts';
import { liabilitiesPlugin } from './areas/liabilities/plugin.ts';
import { linksPlugin } from './areas/links/plugin.ts';
import { spendingPlugin } from './areas/spending/plugin.ts';
import { transactionsPlugin } from './areas/transactions/plugin.ts';
import { userPlugin } from './areas/user/plugin.ts';
import { authPlugin } from './auth/plugin.ts';
import { type Clock, createClock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import { compressionPlugin } from './http/compression.ts';
import { docsPlugin } from './http/docs.ts';
import { errorsPlugin } from './http/errors.ts';
import { validatorCompiler } from './http/fastapi/index.ts';
import { rawQueryPlugin } from './http/fastapi/raw-query.ts';
import { loadSheddingPlugin } from './http/load-shedding.ts';
import { rateLimitPlugin } from './http/rate-limit.ts';
import { responseCacheOptions } from './http/response-cache.ts';
import { revalidationPlugin } from './http/revalidation.ts';
import { securityPlugin } from './http/security.ts';
import { serverOptions, type TlsFiles } from './http/server-options.ts';
import { storePlugin } from './http/store-plugin.ts';
import type { Metrics } from './metrics.ts';
import type { ReadPort } from './port/read-port.ts';
import type { PortSource } from './port/swappable.ts';

export interface AppOptions {
  /** A read port, or a source of them (a swappable store). */
  store: ReadPort | PortSource;
  clock?: Clock;
  /** Fastify logger options; off by default so tests stay quiet. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Operational settings (loadConfig). Without them (most tests) the request bounds keep
   * their defaults, and rate limiting and load shedding, which depend on traffic, are off.
   */
  config?: Config;
  /** Serve HTTPS with this key and certificate. */
  https?: TlsFiles | null;
  metrics?: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
  }
}

/**
 * One character as a URL may spell it: itself, or percent-encoded in either hex case (also
 * encoded again, `%2570`, for a reader who decodes twice). `hexCodes` are its codes in
 * upper and lower case, as a regex alternative.
 */
const spelled = (literal: string, hexCodes: string) => `(?:${literal}|%(?:25)*(?:${hexCodes}))`;

/**
 * Anything a URL decoder turns into `pat_` followed by token characters, in any letter case:
 * `pat_`, `PAT_`, `pat%5F`, `%70at_`, `%50%41%54%5f...`, a token body with encoded characters.
 * (`+` decodes to a space, never to a token character, so it ends a match.)
 */
const PAT_IN_TEXT = new RegExp(
  spelled('p', '[57]0') +
    spelled('a', '[46]1') +
    spelled('t', '[57]4') +
    spelled('_', '5f') +
    `${spelled('[0-9a-z]', '3[0-9]|[46][1-9a-f]|[57][0-9a]')}+`,
  'gi',
);

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
  const config = options.config ?? loadConfig({ RATE_LIMIT_MAX: '0' });
  const app = Fastify({
    ...serverOptions(config, options.https),
    logger: options.logger ?? false,
  }).withTypeProvider<ZodTypeProvider>();
  if (config.MAX_CONNECTIONS > 0) app.server.maxConnections = config.MAX_CONNECTIONS;

  app.setValidatorCompiler(validatorCompiler);
  await app.register(rawQueryPlugin);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('clock', options.clock ?? createClock());
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(compressionPlugin);
  await app.register(securityPlugin, {
    maxUrlLength: config.MAX_URL_LENGTH,
    hstsMaxAge: config.HSTS_MAX_AGE,
  });
  if (options.metrics) await app.register(options.metrics.plugin);
  if (options.config) await app.register(loadSheddingPlugin, sheddingOptions(options.config));
  await app.register(rateLimitPlugin, {
    max: config.RATE_LIMIT_MAX,
    windowMs: config.RATE_LIMIT_WINDOW,
    authFailures: config.RATE_LIMIT_AUTH_FAILURES,
  });
  await app.register(storePlugin, { store: options.store });
  await app.register(authPlugin);
  await app.register(revalidationPlugin);
  await app.register(docsPlugin);
  await app.register(healthPlugin);
  await app.register(userPlugin);
  await app.register(spendingPlugin, { cache: responseCacheOptions(config) });
  await app.register(transactionsPlugin, { heavyListsMax: config.HEAVY_LISTS_MAX });
  await app.register(linksPlugin);
  await app.register(accountsPlugin);
  await app.register(categoriesPlugin);
  await app.register(balancesPlugin);
  await app.register(incomePlugin);
  await app.register(liabilitiesPlugin);
  return app;
}

function sheddingOptions(config: Config) {
  return {
    maxEventLoopDelayMs: config.SHED_MAX_EVENT_LOOP_DELAY_MS,
    maxEventLoopUtilization: config.SHED_MAX_EVENT_LOOP_UTILIZATION,
    maxHeapUsedBytes: config.SHED_MAX_HEAP_BYTES,
    maxRssBytes: config.SHED_MAX_RSS_BYTES,
    sampleIntervalMs: config.SHED_SAMPLE_INTERVAL_MS,
    retryAfterSeconds: config.SHED_RETRY_AFTER_S,
  };
}
