import closeWithGrace from 'close-with-grace';
import {
  heapLimit,
  heapSettings,
  heapSizeGiven,
  memoryPlanProblem,
  oldSpaceMib,
  planMemory,
} from './memory-plan.ts';

/**
 * A hardware fault's signals, left to the OS: a crash in native code (DuckDB's) kills the
 * process, for its supervisor to restart. A JavaScript listener would only be told later: the
 * signal handler returns, the faulting thread runs the instruction again and faults again,
 * forever, and the exit the listener starts never ends, spinning a core (Node's docs on signal
 * events, nodejs/node#8410; nodejs/node#25762).
 */
const FAULTS = ['SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL'] as const;

/** Set on the process this one replaces itself with, to size V8's heap: once is enough. */
const HEAP_SET = 'FINANCE_API_HEAP_SET';

/**
 * Process entry point: configuration, memory, server, signals. V8's heap is part of the memory
 * budget (memory-plan.ts); it can only be sized when a process starts, so one started without
 * --max-old-space-size replaces itself (same process id, same arguments) with one that has the
 * budget's. A configuration whose parts do not fit the budget stops here. SIGTERM / SIGINT
 * close gracefully (in-flight requests finish, new ones get 503 or a refused connection, the
 * store closes), exit 0; past SHUTDOWN_GRACE_MS the process exits 1. SIGHUP reopens the store
 * file. A hardware fault kills the process (FAULTS).
 */
async function main(): Promise<void> {
  if (!heapSizeGiven() && !process.env[HEAP_SET] && typeof process.execve === 'function') {
    // Before the configuration is loaded: its module takes seconds to load on a busy machine,
    // and the process it is replaced by loads it again.
    const plan = planMemory(heapSettings(process.env));
    process.execve(
      process.execPath,
      [
        process.execPath,
        `--max-old-space-size=${oldSpaceMib(plan)}`,
        ...process.execArgv,
        ...process.argv.slice(1),
      ],
      { ...process.env, [HEAP_SET]: '1' },
    );
  }
  const { loadConfig } = await import('./config.ts');
  const config = loadConfig();
  const problem = memoryPlanProblem(planMemory(config), heapLimit());
  if (problem) throw new Error(problem);
  const { startServer } = await import('./server.ts');
  const server = await startServer(config);
  const log = server.app.log;
  closeWithGrace(
    {
      delay: config.SHUTDOWN_GRACE_MS,
      skip: ['SIGHUP', ...FAULTS],
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
