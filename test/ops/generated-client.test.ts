/**
 * End to end with a generated client: the real server process (src/main.ts over a store built
 * from fixtures/demo, TODAY pinned) and examples/monthly-spending.ts (openapi-typescript types
 * + openapi-fetch) talking to it over HTTP. The responses it gets are checked against
 * openapi.yaml too, since the recorder cannot see another process.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker } from '../helpers/contract.ts';
import { buildDemoStore, mintTestToken } from '../helpers/store.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TODAY = '2026-11-20';
const USER = 'usr_jqhzo7mn41';
const run = promisify(execFile);

/** `node --import tsx <script>`: one process, so a signal reaches the script itself. */
const tsxArgs = (script: string, ...args: string[]) => ['--import', 'tsx', script, ...args];

/** Starts src/main.ts on a free port; resolves with its base URL once it listens. */
async function startServer(databasePath: string): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, tsxArgs('src/main.ts'), {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_PATH: databasePath,
      HOST: '127.0.0.1',
      PORT: '0',
      TODAY,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  server.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 20_000);
    server.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
    createInterface({ input: server.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
  });
  return { server, url };
}

async function runClient(url: string, token: string, ...args: string[]) {
  return run(process.execPath, tsxArgs('examples/monthly-spending.ts', ...args), {
    cwd: ROOT,
    env: { ...process.env, API_BASE_URL: url, API_TOKEN: token },
    timeout: 20_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

describe('examples/monthly-spending.ts against the running server', () => {
  let server: ChildProcess | undefined;
  let url: string;
  let token: string;

  beforeAll(async () => {
    const databasePath = await buildDemoStore();
    token = await mintTestToken(databasePath, USER, { name: 'client test' });
    ({ server, url } = await startServer(databasePath));
  });

  afterAll(async () => {
    if (!server || server.exitCode !== null) return;
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  });

  it("prints the user's monthly spending, as the API computes it", async () => {
    const query =
      'group_by=time_period&time_period=month&start_date=2026-06-01&end_date=2026-10-31';
    const response = await fetch(`${url}/v2/users/spending?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await response.text();
    expect(
      contractChecker().check({
        method: 'GET',
        path: '/v2/users/spending',
        url: `/v2/users/spending?${query}`,
        statusCode: response.status,
        headers: Object.fromEntries(response.headers),
        body,
      }),
    ).toEqual([]);
    const analysis = JSON.parse(body) as {
      spending: { by_time_period: { end_date: string; total_amount: string; flow: string }[] };
      summary: { total_spending: string };
      savings_rate: string | null;
    };
    const months = analysis.spending.by_time_period;
    expect(months.map((m) => m.end_date.slice(0, 7))).toEqual([
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
    ]);

    const result = await runClient(url, token, '--start', '2026-06-01', '--end', '2026-10-31');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('Monthly spending of Ben Smith');
    for (const month of months) {
      const row = lines.find((line) => line.startsWith(month.end_date.slice(0, 7)));
      expect(row, month.end_date).toBeDefined();
      expect(row?.split(/\s+/)[1]).toBe(month.total_amount);
    }
    expect(result.stdout).toContain(`Total spent:     ${analysis.summary.total_spending} in `);
    expect(result.stdout).toContain(`Savings rate:    ${analysis.savings_rate}%`);
  });

  it('reports what the API refuses: a bad token (401), a bad date (422)', async () => {
    const [unauthorized, invalid] = await Promise.all([
      runClient(url, 'pat_not_a_real_token'),
      runClient(url, token, '--start', '2026-13-01'),
    ]);
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr).toContain('401 Invalid authentication credentials');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('422 query.start_date: Input should be a valid date');
  });

  it('the served document and docs page answer without a token over HTTP', async () => {
    const document = await fetch(`${url}/openapi.json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { info: { version: string } }).info.version).toBe('1.0.0');
    const docs = await fetch(`${url}/docs`);
    expect(docs.status).toBe(200);
  });
});
