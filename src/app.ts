import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountsPlugin } from './areas/accounts/plugin.ts';
import { balancesPlugin } from './areas/balances/plugin.ts';
import { categoriesPlugin } from './areas/categories/plugin.ts';
import { eventsPlugin } from './areas/events/plugin.ts';
import { healthPlugin } from './areas/health/plugin.ts';
import { incomePlugin } from './areas/income/plugin.ts';
import { liabilitiesPlugin } from './areas/liabilities/plugin.ts';
import { linksPlugin } from './areas/links/plugin.ts';
import { recurringPlugin } from './areas/recurring/plugin.ts';
import { spendingPlugin } from './areas/spending/plugin.ts';
import { transactionsPlugin } from './areas/transactions/plugin.ts';
import { userPlugin } from './areas/user/plugin.ts';
import { type Clock, createClock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import { AccessLogController, admissionPlugin } from './http/admission.ts';
import { authPlugin } from './http/auth.ts';
import { compressionPlugin } from './http/compression.ts';
import { docsPlugin } from './http/docs.ts';
import { errorsPlugin } from './http/errors.ts';
import { validatorCompiler } from './http/fastapi/index.ts';
import { rawQueryPlugin } from './http/fastapi/raw-query.ts';
import { keepAlivePlugin } from './http/keep-alive.ts';
import { heapThreshold, rssThreshold } from './http/load-shedding.ts';
import type { Metrics } from './http/metrics.ts';
import { ResponseCache } from './http/response-cache.ts';
import { revalidationPlugin } from './http/revalidation.ts';
import { securityPlugin } from './http/security.ts';
import { serializerCompiler } from './http/serializer.ts';
import { serverOptions, type TlsFiles } from './http/server-options.ts';
import { stalledReadersPlugin } from './http/stalled-readers.ts';
import { storePlugin } from './http/store-plugin.ts';
import { type MemoryPlan, planMemory } from './memory-plan.ts';
import type { StoreQueuePressure } from './port/fair-queue.ts';
import type { PortSource } from './port/hot-swap.ts';
import type { ReadPort } from './port/read-port.ts';

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
  /** The store's queues, whose saturation is pressure for shedding (with `config`). */
  storeQueue?: StoreQueuePressure;
  /** The memory budget's parts (default: planned from `config`). */
  memory?: MemoryPlan;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    /** The answers cached per generation (one budget, RESPONSE_CACHE_MB). */
    responseCache: ResponseCache;
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const config = options.config ?? loadConfig({ RATE_LIMIT_MAX: '0', CLIENT_MAX_IN_FLIGHT: '0' });
  const app = Fastify({
    ...serverOptions(config, options.https),
    logger: options.logger ?? false,
    logController: new AccessLogController(),
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
  await app.register(keepAlivePlugin, { maxRequestsPerSocket: config.MAX_REQUESTS_PER_SOCKET });
  await app.register(stalledReadersPlugin, {
    stalledReaderMs: config.STALLED_READER_MS,
    onCut: (socket) =>
      app.faultLog.warn(
        app.log,
        'slow reader cut',
        `the client at ${socket.remoteAddress} took no bytes for ${config.STALLED_READER_MS} ms`,
      ),
  });
  await app.register(compressionPlugin);
  await app.register(securityPlugin, {
    maxUrlLength: config.MAX_URL_LENGTH,
    hstsMaxAge: config.HSTS_MAX_AGE,
  });
  if (options.metrics) await app.register(options.metrics.plugin);
  const memory = options.memory ?? planMemory(config);
  await app.register(admissionPlugin, admissionOptions(config, options, memory));
  options.metrics?.observeAdmission(app.admission.queue);
  await app.register(storePlugin, { store: options.store });
  await app.register(authPlugin);
  await app.register(revalidationPlugin);
  await app.register(docsPlugin);
  await app.register(healthPlugin);
  await app.register(userPlugin);
  // One budget (RESPONSE_CACHE_MB) for every answer cached per generation.
  const answers = new ResponseCache({
    maxBytes: memory.responseCache,
    maxEntries: config.RESPONSE_CACHE_ENTRIES,
  });
  app.decorate('responseCache', answers);
  await app.register(spendingPlugin, { cache: answers });
  await app.register(transactionsPlugin, { heavyListsMax: config.HEAVY_LISTS_MAX });
  await app.register(linksPlugin);
  await app.register(accountsPlugin);
  await app.register(categoriesPlugin);
  await app.register(balancesPlugin);
  await app.register(incomePlugin);
  await app.register(liabilitiesPlugin);
  await app.register(recurringPlugin, { cache: answers });
  await app.register(eventsPlugin, {
    perToken: config.EVENT_STREAMS_PER_TOKEN,
    max: config.EVENT_STREAMS_MAX,
    keepAliveMs: config.EVENT_KEEP_ALIVE_MS,
    lifetimeMs: config.EVENT_STREAM_LIFETIME_MS,
  });
  return app;
}

/** Rate limits always (RATE_LIMIT_MAX=0 turns them off); shedding only with settings given. */
function admissionOptions(config: Config, options: AppOptions, memory: MemoryPlan) {
  const shedding = options.config !== undefined;
  return {
    rateLimitMax: config.RATE_LIMIT_MAX,
    rateLimitWindowMs: config.RATE_LIMIT_WINDOW,
    authFailures: config.RATE_LIMIT_AUTH_FAILURES,
    maxInFlightPerClient: config.CLIENT_MAX_IN_FLIGHT,
    maxRunning: config.MAX_RUNNING_REQUESTS,
    maxWaiting: config.MAX_WAITING_REQUESTS,
    refusalDelayMs: config.REFUSAL_DELAY_MS,
    pressure: {
      maxEventLoopDelayMs: shedding ? config.SHED_MAX_EVENT_LOOP_DELAY_MS : 0,
      maxEventLoopUtilization: shedding ? config.SHED_MAX_EVENT_LOOP_UTILIZATION : 0,
      maxHeapUsedBytes: shedding ? heapThreshold(config.SHED_MAX_HEAP_BYTES) : 0,
      maxRssBytes: shedding ? rssThreshold(config.SHED_MAX_RSS_BYTES, memory.budget) : 0,
    },
    sampleIntervalMs: config.SHED_SAMPLE_INTERVAL_MS,
    retryAfterSeconds: config.SHED_RETRY_AFTER_S,
    ...(shedding && options.storeQueue
      ? { storeQueueSaturated: () => options.storeQueue?.takeSaturated() ?? false }
      : {}),
    ...(options.metrics ? { onRefusal: options.metrics.observeRefusal } : {}),
  };
}
