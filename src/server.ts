/**
 * The running service: configuration in, a listening server out, with its store (hot
 * swappable), file watch, metrics server and an orderly close. main.ts adds the signals.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { createClock } from './clock.ts';
import { type Config, ConfigError } from './config.ts';
import { openDuckDbPort } from './engines/duckdb/port.ts';
import { DamagedFileRecovery, watchStoreFile } from './engines/duckdb/watch.ts';
import { PgPool } from './engines/postgres/pool.ts';
import { openPostgresPort } from './engines/postgres/port.ts';
import { CoordinatorTokens } from './engines/postgres/tokens.ts';
import { watchGeneration } from './engines/postgres/watch.ts';
import { loggerOptions } from './http/log-redaction.ts';
import { Metrics, startMetricsServer } from './http/metrics.ts';
import type { TlsFiles } from './http/server-options.ts';
import { type MemoryPlan, planMemory } from './memory-plan.ts';
import { StoreQueuePressure } from './port/fair-queue.ts';
import { type ReloadOutcome, SwappablePort } from './port/hot-swap.ts';
import type { ReadPort } from './port/read-port.ts';
import { WorkingSet } from './port/working-set/port.ts';
import { FollowedTokens } from './tokens/followed-tokens.ts';
import { tokensPathFor } from './tokens/path.ts';

export interface RunningServer {
  app: FastifyInstance;
  store: SwappablePort;
  /** The API's base URL, e.g. `https://127.0.0.1:8443`. */
  url: string;
  metricsUrl: string | null;
  /** Reopens the store file (SIGHUP), even one refused as damaged. */
  reload(reason: string): Promise<ReloadOutcome>;
  /** Stops accepting, lets in-flight requests finish, closes the store and the metrics server. */
  close(): Promise<void>;
}

/** Reads the certificate and key named by TLS_CERT_FILE / TLS_KEY_FILE, if set. */
export function readTlsFiles(config: Config): TlsFiles | null {
  if (!config.TLS_CERT_FILE || !config.TLS_KEY_FILE) return null;
  const read = (name: 'TLS_CERT_FILE' | 'TLS_KEY_FILE') => {
    const path = config[name] as string;
    try {
      return readFileSync(path);
    } catch (error) {
      throw new ConfigError(`${name}=${JSON.stringify(path)}: ${(error as Error).message}`);
    }
  };
  return { cert: read('TLS_CERT_FILE'), key: read('TLS_KEY_FILE') };
}

/** What the server needs of an engine: open its current generation, follow new ones, close. */
interface Engine {
  /** The port the server starts on. */
  open(): Promise<ReadPort>;
  /** A port on the generation published now, for a swap; undefined: refused, and said why. */
  reopen(): Promise<ReadPort | undefined>;
  /** SIGHUP: what the engine refused may be opened again. */
  pardon(): void;
  watch(current: () => ReadPort, onPublish: (reason: string) => void): { close(): void };
  /** Said once at start (a token store that holds no token). */
  warnings(): { details: object; message: string }[];
  close(): Promise<void>;
}

async function openDuckDb(
  config: Config,
  memory: MemoryPlan,
  metrics: Metrics | undefined,
  app: () => FastifyInstance | undefined,
  workingSet: WorkingSet,
  queuePressure: StoreQueuePressure,
  onDamaged: () => void,
): Promise<Engine> {
  // Followed for the whole process: tokens change apart from the store's generations.
  const tokens = await FollowedTokens.open(
    config.TOKENS_PATH ?? tokensPathFor(config.DATABASE_PATH),
    {
      spillBase: config.DUCKDB_TEMP_DIRECTORY,
      onError: (error) =>
        app()?.log.error(
          { error: String(error) },
          'token store unreadable: the tokens read before stay in force',
        ),
    },
  );
  const open = async () => {
    // A damage found while the port is opened and checked fails that open; from then on it is
    // the served store's (or one on its way to be).
    let handedOut = false;
    const port = await openDuckDbPort(config.DATABASE_PATH, {
      tokens,
      workingSet,
      poolSize: config.DB_POOL_SIZE,
      threads: config.DUCKDB_THREADS,
      memoryLimit: memory.duckdb,
      maxTempSize: config.DUCKDB_MAX_TEMP_SIZE,
      ...(config.DUCKDB_TEMP_DIRECTORY ? { tempDirectory: config.DUCKDB_TEMP_DIRECTORY } : {}),
      queryTimeoutMs: config.QUERY_TIMEOUT_MS,
      maxQueue: config.DB_MAX_QUEUE,
      queuePressure,
      ...(metrics ? { onQuery: metrics.observeQuery } : {}),
      // Once per opened file: every request then answers 503 and readiness fails until a
      // good file serves in its place (the same one once it read whole, or one published).
      onDamaged: (reason, file) => {
        if (!handedOut) return;
        app()?.log.error({ reason }, 'store unreadable: answering 503 until a good file serves');
        recovery.damaged(file);
        onDamaged();
      },
    });
    handedOut = true;
    return port;
  };
  const recovery = new DamagedFileRecovery(config.DATABASE_PATH, open, {
    error: (object, message) => app()?.log.error(object, message),
  });
  return {
    open,
    reopen: () => recovery.open(),
    pardon: () => recovery.pardon(),
    watch: (current, onPublish) =>
      watchStoreFile(
        config.DATABASE_PATH,
        {
          onPublish: () => onPublish('new file published'),
          // The served store's own check finds the change and marks it damaged, at once.
          onChangedInPlace: () => {
            current()
              .ping()
              .catch(() => {});
          },
        },
        config.STORE_WATCH_DEBOUNCE_MS,
      ),
    warnings: () =>
      tokens.size === 0
        ? [
            {
              details: { tokens: tokens.path },
              message: 'no tokens: the token store is empty or missing (npm run token mints one)',
            },
          ]
        : [],
    close: async () => tokens.close(),
  };
}

/**
 * One pool for the process: every generation's port reads through it. Tokens are cached for
 * the process, across generations, while the coordinator's change notices are heard.
 */
function openPostgres(
  config: Config,
  metrics: Metrics | undefined,
  app: () => FastifyInstance | undefined,
  workingSet: WorkingSet,
  queuePressure: StoreQueuePressure,
): Engine {
  const pool = new PgPool(config.DATABASE_URL as string, {
    poolSize: config.DB_POOL_SIZE,
    queryTimeoutMs: config.QUERY_TIMEOUT_MS,
    maxQueue: config.DB_MAX_QUEUE,
    queuePressure,
    ...(metrics ? { onQuery: metrics.observeQuery } : {}),
  });
  // A warning before the app exists (at start) is said with the engine's warnings.
  let pending: string | undefined;
  const coordinatorTokens = new CoordinatorTokens(pool, config.DATABASE_URL as string, {
    onState: (caching, reason) => {
      const log = app()?.log;
      if (caching) log?.info(reason);
      else if (log) log.warn(reason);
      else pending = reason;
    },
  });
  coordinatorTokens.start();
  const open = () => openPostgresPort(pool, { coordinatorTokens, workingSet });
  return {
    open,
    reopen: open,
    pardon: () => {},
    watch: (current, onPublish) =>
      watchGeneration(
        pool,
        () => current().generation,
        () => onPublish('new generation published'),
        config.STORE_POLL_MS,
      ),
    warnings: () => {
      const said = pending;
      pending = undefined;
      return said && !coordinatorTokens.caching ? [{ details: {}, message: said }] : [];
    },
    close: async () => {
      await coordinatorTokens.close();
      await pool.close();
    },
  };
}

export async function startServer(config: Config): Promise<RunningServer> {
  const https = readTlsFiles(config);
  const metrics = config.METRICS_PORT === undefined ? undefined : new Metrics();
  let app: FastifyInstance | undefined;
  let store: SwappablePort | undefined;
  const memory = planMemory(config);
  const workingSet = new WorkingSet({
    maxBytes: memory.workingSet,
    maxRows: config.WORKING_SET_MAX_ROWS,
  });
  metrics?.observeWorkingSet(() => workingSet.stats());
  // Every store queue of the process: a full one is pressure for admission's shedding.
  const queuePressure = new StoreQueuePressure();
  const engine = config.DATABASE_URL
    ? openPostgres(config, metrics, () => app, workingSet, queuePressure)
    : await openDuckDb(
        config,
        memory,
        metrics,
        () => app,
        workingSet,
        queuePressure,
        () => void store?.reload('store unreadable'),
      );
  const first = await engine.open().catch(async (error: unknown) => {
    await engine.close();
    throw error;
  });
  store = new SwappablePort(first, {
    open: engine.reopen,
    log: {
      info: (object, message) => app?.log.info(object, message),
      warn: (object, message) => app?.log.warn(object, message),
      error: (object, message) => app?.log.error(object, message),
    },
    ...(metrics ? { onReload: metrics.observeReload } : {}),
  });
  metrics?.setGeneration(first.generation);
  app = await buildApp({
    store,
    clock: createClock(config.TODAY),
    logger: loggerOptions(config.LOG_LEVEL),
    config,
    memory,
    https,
    storeQueue: queuePressure,
    ...(metrics ? { metrics } : {}),
  });
  for (const { details, message } of engine.warnings()) app.log.warn(details, message);
  const answers = app.responseCache;
  metrics?.observeMemory(memory, async () => ({
    workingSet: workingSet.stats().bytes,
    engine: (await store.current.engineMemory?.()) ?? 0,
    responseCache: answers.stats().bytes,
  }));
  // Runs after the server has stopped and every in-flight request has been answered.
  app.addHook('onClose', async () => {
    await store.close();
    await engine.close();
  });
  const watcher = config.STORE_WATCH
    ? engine.watch(
        () => store.current,
        (reason) => void store.reload(reason),
      )
    : null;
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | null = null;
  try {
    const url = await app.listen({ port: config.PORT, host: config.HOST });
    if (metrics && config.METRICS_PORT !== undefined) {
      metricsServer = await startMetricsServer(metrics, config.METRICS_PORT, config.METRICS_HOST);
      app.log.info({ port: metricsServer.port }, 'metrics listening');
    }
    const running: RunningServer = {
      app,
      store,
      url,
      metricsUrl: metricsServer
        ? `http://${config.METRICS_HOST}:${metricsServer.port}/metrics`
        : null,
      reload: (reason) => {
        engine.pardon();
        return store.reload(reason);
      },
      close: async () => {
        watcher?.close();
        await app?.close();
        await metricsServer?.close();
      },
    };
    return running;
  } catch (error) {
    watcher?.close();
    await app.close();
    await metricsServer?.close();
    throw error;
  }
}
