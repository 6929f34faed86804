import closeWithGrace from 'close-with-grace';
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

/**
 * Process entry point: configuration, server, signals. SIGTERM / SIGINT close gracefully
 * (in-flight requests finish, new ones get 503 or a refused connection, the store closes),
 * exit 0; past SHUTDOWN_GRACE_MS the process exits 1. SIGHUP reopens the store file.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config);
  const log = server.app.log;
  closeWithGrace(
    {
      delay: config.SHUTDOWN_GRACE_MS,
      skip: ['SIGHUP'],
      logger: { error: (message: string) => log.error(message) },
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'closing after an unexpected error');
      else log.info({ signal }, 'shutting down: finishing in-flight requests');
      await server.close();
      log.info('shut down');
    },
  );
  process.on('SIGHUP', () => {
    log.info('SIGHUP: reopening the store');
    void server.reload('SIGHUP');
  });
}

// One line, as docs/operations.md shows it: the reason, without the error's class.
main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`finance-api: ${message}\n`);
  process.exit(1);
});
