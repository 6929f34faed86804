import { buildApp, loggerOptions } from './app.ts';
import { createClock } from './clock.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DuckDbStore } from './store/duckdb.ts';

/** Process entry point: configuration, store, server, signals. */
async function main(): Promise<void> {
  const config = loadConfig();
  const store = await DuckDbStore.open(config.DATABASE_PATH, {
    poolSize: config.DB_POOL_SIZE,
    threads: config.DUCKDB_THREADS,
    memoryLimit: config.DUCKDB_MEMORY_LIMIT,
  });
  const app = await buildApp({
    store,
    clock: createClock(config.TODAY),
    logger: loggerOptions(config.LOG_LEVEL),
  });
  app.addHook('onClose', () => store.close());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : String(error);
  process.stderr.write(`finance-api: ${message}\n`);
  process.exit(1);
});
