/**
 * Heavy lists (unpaginated lists of over 20,000 transactions) share their places by client,
 * and a client that stops reading is cut (docs/operations.md, "Too many heavy lists" and
 * "A client that stops reading"): one client holds at most half of HEAVY_LISTS_MAX (429 past
 * it, its own doing), another client is served meanwhile, and only when other clients hold
 * every place is a list refused with 503. On each engine, against the real server process.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintClusterToken } from '../../src/engines/postgres/tokens.ts';
import { testEngine } from '../helpers/engine.ts';
import { type Answer, eventually, get, judge } from '../helpers/faults.ts';
import { createTestDatabase, loadStoreFile } from '../helpers/postgres.ts';
import { bearer, DEMO_TODAY, type ServerProcess, startServerProcess } from '../helpers/server.ts';
import { buildHeavyStore, mintTestToken, queryStoreFile } from '../helpers/store.ts';

const ROWS = 25_000;
let server: ServerProcess;
let tokens: string[];
let truth: (body: string) => boolean;

beforeAll(async () => {
  const { path, heavyUserId: heavy } = await buildHeavyStore(ROWS);
  const [{ count } = { count: 0 }] = await queryStoreFile<{ count: number }>(
    path,
    'SELECT count(*)::INTEGER AS count FROM transactions WHERE user_id = $1',
    [heavy],
  );
  truth = (body) => (JSON.parse(body) as { count: number }).count === count;
  let env: Record<string, string>;
  if (testEngine() === 'postgres') {
    const databaseUrl = await createTestDatabase();
    await loadStoreFile(databaseUrl, path);
    tokens = [];
    for (let i = 0; i < 4; i++) tokens.push(await mintClusterToken({ databaseUrl, userId: heavy }));
    env = { DATABASE_URL: databaseUrl };
  } else {
    tokens = [];
    for (let i = 0; i < 4; i++) tokens.push(await mintTestToken(path, heavy));
    env = { DATABASE_PATH: path };
  }
  server = await startServerProcess({
    ...env,
    TODAY: DEMO_TODAY,
    RATE_LIMIT_MAX: '0',
    HEAVY_LISTS_MAX: '2',
    // Long enough for the first test to hold answers open unread while it asks the others.
    STALLED_READER_MS: '8000',
  });
}, 180_000);

afterAll(async () => {
  if (!server) return;
  server.child.kill('SIGTERM');
  await server.exited;
});

/** Starts the list for `token`: its status once the answer starts; the body is read later. */
async function start(token: string) {
  const response = await fetch(`${server.url}/v2/users/transactions`, {
    headers: { ...bearer(token), 'accept-encoding': 'identity' },
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: () => response.text(),
  };
}

describe('heavy lists', () => {
  it('one client holds at most half the places (429 past them); another is served; 503 only when others hold them all', async () => {
    const [a, b, c] = tokens as [string, string, string];
    // Each answer below is held open by not reading it: its place stays taken.
    const first = await start(a);
    expect(first.status).toBe(200);
    const again = await start(a);
    expect([again.status, again.retryAfter]).toEqual([429, '10']);
    expect(await again.body()).toBe('{"detail":"Too Many Requests"}');
    const other = await start(b);
    expect(other.status).toBe(200);
    const third = await start(c);
    expect(third.status).toBe(503);
    expect(third.retryAfter).toMatch(/^\d+$/);
    // Read whole, both lists are true; their places are given back.
    expect(truth(await first.body())).toBe(true);
    expect(truth(await other.body())).toBe(true);
    const later = await eventually(
      async () =>
        judge(await get(`${server.url}/v2/users/transactions`, bearer(c)), truth) === 'ok',
      10_000,
    );
    expect(later).toBe(true);
  }, 60_000);

  it('a client that stops reading is cut, and its place given back', async () => {
    const [a, b, c] = tokens as [string, string, string];
    const { port } = new URL(server.url);
    const logBefore = server.output().length;
    // Asks for the list and never reads: the answer fills the buffers and stalls.
    const stalled = connect(Number(port), '127.0.0.1');
    stalled.pause();
    let received = '';
    stalled.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    const ended = new Promise<void>((resolve) => {
      stalled.once('error', () => resolve());
      stalled.once('close', () => resolve());
    });
    stalled.write(
      `GET /v2/users/transactions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a}\r\n\r\n`,
    );
    // STALLED_READER_MS is 8 s: the stalled connection is cut, well before Node's own idle
    // timeout (60 s).
    const cut = await eventually(
      async () => server.output().slice(logBefore).includes('slow reader cut'),
      40_000,
    );
    expect(cut).toBe(true);
    // Its place is free: two other clients' lists are sent at once (the second place was
    // free all along), read whole and true.
    const [second, third] = await Promise.all(
      [b, c].map((token) => get(`${server.url}/v2/users/transactions`, bearer(token))),
    );
    expect([judge(second as Answer, truth), judge(third as Answer, truth)]).toEqual(['ok', 'ok']);
    // Read now, the stalled answer is visibly cut short: the connection ends with the chunked
    // body never terminated.
    stalled.resume();
    await ended;
    expect(received.startsWith('HTTP/1.1 200')).toBe(true);
    expect(received.endsWith('\r\n0\r\n\r\n')).toBe(false);
    const log = server.output().slice(logBefore);
    expect(log).not.toContain('"stack"');
  }, 60_000);
});
