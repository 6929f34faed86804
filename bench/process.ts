/**
 * The server under test, as its own process (`node --import tsx src/main.ts`, what
 * `npm run serve` runs), and the memory figures of a process read from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './stores.ts';

/** Peak resident set (VmHWM) in MiB, or null where /proc is not available. */
export async function peakRssMiB(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Resets VmHWM to the current RSS (Linux `clear_refs` 5), so each scenario reports its own peak. */
export async function resetPeakRss(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerHandle {
  pid: number;
  url: string;
  /** Its Prometheus metrics (`GET /metrics`): the working set's gauges among them. */
  metricsUrl: string;
  /** SIGTERM, then its exit code (SIGKILL after 10 s: null). */
  stop(): Promise<number | null>;
}

export async function startServer(options: {
  databasePath: string;
  /** Serve from this PostgreSQL cluster instead of the DuckDB file. */
  databaseUrl?: string;
  env: Record<string, string>;
  progress: (line: string) => void;
  timeoutMs?: number;
  /** Each line the server logs (its stdout), when given. */
  onLogLine?: (line: string) => void;
}): Promise<ServerHandle> {
  const port = await freePort();
  const metricsPort = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...options.env,
        DATABASE_PATH: options.databasePath,
        DATABASE_URL: options.databaseUrl ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: '127.0.0.1',
      },
      stdio: ['ignore', options.onLogLine ? 'pipe' : 'ignore', 'pipe'],
    },
  );
  if (options.onLogLine && child.stdout) {
    createInterface({ input: child.stdout }).on('line', options.onLogLine);
  }
  const output: string[] = [];
  if (child.stderr) {
    createInterface({ input: child.stderr }).on('line', (line) => {
      output.push(line);
      if (output.length > 50) output.shift();
    });
  }
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code) => {
      exited = code;
      resolve();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (exited !== undefined) {
      throw new Error(
        `the server exited (code ${exited}) before it was ready:\n${output.join('\n')}`,
      );
    }
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready within the timeout:\n${output.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server has no process id');
  options.progress(`server ready at ${url} (pid ${pid})`);
  return {
    pid,
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    async stop() {
      if (exited !== undefined) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
      return exited ?? null;
    },
  };
}
