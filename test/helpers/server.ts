/** Helpers for the suites that run the server: a demo store with tokens, config, the real server process. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Config, loadConfig } from '../../src/config.ts';
import { DEMO_USERS } from '../../tools/demo-data/demo.ts';
import { buildDemoStore, makeTempDir, mintTestToken } from './store.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export { DEMO_TODAY, DEMO_USERS } from '../../tools/demo-data/demo.ts';

/** A private copy of the demo store (safe to replace) with one token per listed user. */
export async function demoStoreCopy(
  users: readonly string[] = DEMO_USERS.slice(0, 2),
): Promise<{ path: string; tokens: string[] }> {
  const path = join(makeTempDir('demo-copy'), 'finance.duckdb');
  await copyFile(await buildDemoStore(), path);
  const tokens: string[] = [];
  for (const user of users) tokens.push(await mintTestToken(path, user));
  return { path, tokens };
}

/**
 * Shedding on event-loop delay is off in tests unless a test sets it: on a machine running
 * several suites at once a server starved of CPU sees delays past the threshold, and would
 * shed a test's concurrent requests (a client with requests running may be a heavy client).
 * The shedding tests (test/api/http-faults.test.ts) set it.
 */
const TEST_DEFAULTS = { SHED_MAX_EVENT_LOOP_DELAY_MS: '0' };

/** The validated config of these variables (everything else at its default, but see above). */
export function configOf(env: Record<string, string> = {}): Config {
  return loadConfig({ ...TEST_DEFAULTS, ...env });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The command the Docker image runs (CMD in Dockerfile): node with tsx's loader, so signals
 * reach the server's own process.
 */
export const SERVER_COMMAND = ['node', '--import', 'tsx', 'src/main.ts'] as const;

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** stdout and stderr so far (JSON log lines). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The servers this test process started that still run. A test that times out never reaches
 * its own clean-up, so whatever is left is killed when the test process exits rather than
 * outliving the run.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts the real server process and waits for its "Server listening at" log line. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const [command, ...args] = SERVER_COMMAND;
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...TEST_DEFAULTS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (https?:\/\/[^"\s]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

/** A key and a self-signed certificate for 127.0.0.1 and localhost, made with openssl. */
export function selfSignedCertificate(): { keyFile: string; certFile: string } {
  const dir = makeTempDir('tls');
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile };
}
