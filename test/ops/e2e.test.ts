/**
 * End to end, as a new user follows the README: `npm start` (tools/start.ts) on a machine
 * with no store builds the demo store, prints a token and a curl line, and serves real HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/store.ts';

const ROOT = resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let server: ChildProcess;
let stdout = '';
let stderr = '';
let base = '';
let token = '';

async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    if (server.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`timed out waiting for ${what}; stdout: ${stdout}; stderr: ${stderr}`);
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'tools/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_PATH: join(makeTempDir('e2e'), 'finance.duckdb'),
      PORT: String(port),
      HOST: '127.0.0.1',
      TODAY: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  await waitFor(() => /Token: +pat_\w+/.test(stdout), 'the printed token');
  token = /Token: +(pat_\w+)/.exec(stdout)?.[1] ?? '';
  await waitFor(
    () =>
      fetch(`${base}/healthz`).then(
        (response) => response.ok,
        () => false,
      ),
    'the server to listen',
  );
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
});

const call = (path: string, authorization = `Bearer ${token}`) =>
  fetch(`${base}${path}`, { headers: { authorization } });

describe('npm start on a machine without a store', () => {
  it('builds the demo store and prints a token with a ready-to-paste curl command', () => {
    expect(stderr).toContain('building it from fixtures/demo');
    expect(token).toMatch(/^pat_[0-9A-Za-z]{36}$/);
    expect(stdout).toContain(
      `curl -s -H 'Authorization: Bearer ${token}' '${base}/v2/users/spending?group_by=category&time_period=month'`,
    );
  });

  it('answers GET /v1/user over HTTP with the printed token', async () => {
    const response = await call('/v1/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual({
      id: 'usr_jqhzo7mn41',
      name: 'Ben Smith',
      email: 'ben.smith.0@example.com',
      phone: '+15554906455',
    });
  });

  it('serves the spending analysis of the demo data as of the pinned demo day', async () => {
    const response = await call('/v2/users/spending?group_by=category&time_period=month');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      request_id: string;
      spending: { by_category: unknown[] };
      summary: { total_transactions: number };
      total_income: string;
    };
    expect(body.request_id).toBe(response.headers.get('x-request-id'));
    expect(body.spending.by_category.length).toBeGreaterThan(5);
    expect(body.summary.total_transactions).toBeGreaterThan(100);
    expect(body.total_income).toMatch(/^\d+\.\d{2}$/);
  });

  it('prints a curl command for the recurring streams, which lists every cadence', async () => {
    expect(stdout).toContain(
      `curl -s -H 'Authorization: Bearer ${token}' '${base}/v2/users/recurring'`,
    );
    const response = await call('/v2/users/recurring');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, { cadence: string }[]>;
    const streams = [...(body.outflow_streams ?? []), ...(body.inflow_streams ?? [])];
    expect(new Set(streams.map((stream) => stream.cadence)).size).toBe(7);
  });

  it('rejects a wrong token over HTTP with the FastAPI body and header', async () => {
    const response = await call('/v1/user', 'Bearer pat_000000000000000000000000000000000000');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await response.json()).toEqual({ detail: 'Invalid authentication credentials' });
  });
});
