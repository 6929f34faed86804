/**
 * examples/recurring-streams.ts, the typed client of GET /v2/users/recurring, as a user runs it:
 * against the real server process over the demo store (it prints what the API answers), and on
 * its own (--help, wrong usage, an API it cannot reach).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  DEMO_TODAY,
  REPO_ROOT,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server.ts';
import { buildDemoStore, mintTestToken } from '../helpers/store.ts';

const run = promisify(execFile);

async function client(args: string[], env: Record<string, string | undefined>) {
  return run(process.execPath, ['--import', 'tsx', 'examples/recurring-streams.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_TOKEN: undefined, API_BASE_URL: 'http://127.0.0.1:9', ...env },
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

interface Stream {
  merchant_name: string | null;
  description: string;
  annual_amount: string;
  is_active: boolean;
  predicted_next_date: string | null;
}

describe('examples/recurring-streams.ts against the running server', () => {
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    const databasePath = await buildDemoStore();
    token = await mintTestToken(databasePath, 'usr_jqhzo7mn41', { name: 'client test' });
    server = await startServerProcess({ DATABASE_PATH: databasePath, TODAY: DEMO_TODAY });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('prints each stream the API lists, and what the active ones cost a year', async () => {
    const response = await fetch(`${server.url}/v2/users/recurring`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    const { outflow_streams: out } = (await response.json()) as { outflow_streams: Stream[] };

    const result = await client([], { API_TOKEN: token, API_BASE_URL: server.url });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Recurring streams as of ${DEMO_TODAY} (USD)`);
    for (const stream of out) {
      const name = (stream.merchant_name ?? stream.description).slice(0, 28);
      const row = lines.find((line) => line.startsWith(name));
      expect(row, name).toBeDefined();
      expect(row).toContain(stream.annual_amount);
      expect(row).toContain(stream.predicted_next_date ?? ' - ');
    }
    // The active outflows' annual amounts, added in cents.
    const active = out.filter((stream) => stream.is_active);
    const total = active.reduce((sum, s) => sum + BigInt(s.annual_amount.replace('.', '')), 0n);
    const dollars = `${total / 100n}.${String(total % 100n).padStart(2, '0')}`;
    expect(result.stdout).toContain(`${active.length} active, ${dollars} a year`);
  });

  it('passes --account and --link as the query', async () => {
    const result = await client(['--account', 'acc_c91djv0subp9qu', '--link', 'nope'], {
      API_TOKEN: token,
      API_BASE_URL: server.url,
    });
    expect(result.code).toBe(0);
    // No account of the user is on link `nope`: nothing out, nothing in.
    expect(result.stdout).toContain('0 active, 0.00 a year');
  });

  it('reports a token the API refuses: exit 1', async () => {
    const refused = await client([], {
      API_TOKEN: 'pat_not_a_real_token',
      API_BASE_URL: server.url,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('401 Invalid authentication credentials');
  });
});

describe('examples/recurring-streams.ts on its own', () => {
  it('--help prints usage, exit 0; wrong usage says why, exit 2; no API, exit 1', async () => {
    const help = await client(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: /);
    for (const word of ['--account', '--link', 'API_TOKEN', 'API_BASE_URL', 'Exit codes']) {
      expect(help.stdout, word).toContain(word);
    }
    const unknown = await client(['--month', '5'], { API_TOKEN: 'pat_x' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("recurring-streams: Unknown option '--month'");
    const noToken = await client([], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('set API_TOKEN');
    const unreachable = await client([], { API_TOKEN: 'pat_x' });
    expect(unreachable.code).toBe(1);
  });
});
