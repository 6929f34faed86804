/**
 * What HTTP clients expect of a JSON API: compressed bodies negotiated from
 * Accept-Encoding, and conditional GETs (weak ETag, If-None-Match -> 304, private no-cache),
 * checked against the real server process over a real socket.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  DEMO_TODAY,
  demoStoreCopy,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server.ts';
import { publishNewGeneration } from '../helpers/store.ts';

let server: ServerProcess;
let path: string;
let token: string;

beforeAll(async () => {
  const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
  path = demo.path;
  token = demo.tokens[0] as string;
  server = await startServerProcess({
    DATABASE_PATH: path,
    TODAY: DEMO_TODAY,
    STORE_WATCH_DEBOUNCE_MS: '50',
  });
});
afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body comes back exactly as sent (Node's http client never decodes). */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${url}`, { headers: { ...bearer(token), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const LIST = '/v2/users/transactions?transacted_at_from=2026-01-01';

describe('compression', () => {
  it('brotli and gzip when asked, the same JSON once decoded; identity otherwise', async () => {
    const plain = await get(LIST);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(50_000);

    const br = await get(LIST, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 5);

    const gzip = await get(LIST, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);

    // Fetch negotiates and decodes by itself: the client sees plain JSON.
    const fetched = await fetch(`${server.url}${LIST}`, { headers: bearer(token) });
    expect(['br', 'gzip']).toContain(fetched.headers.get('content-encoding'));
    expect(Buffer.from(await fetched.arrayBuffer()).equals(plain.body)).toBe(true);
  });

  it('small bodies are sent as they are', async () => {
    const small = await get('/v1/user', { 'accept-encoding': 'br, gzip' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('revalidation', () => {
  it('a weak ETag per user, query, day and data; If-None-Match answers 304 with no body', async () => {
    const first = await get('/v1/user');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const again = await get('/v1/user', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers['x-request-id']).toBeDefined();

    // Another query, another tag; a list of tags or * matches too.
    const other = await get('/v1/user?x=1');
    expect(other.headers.etag).not.toBe(etag);
    expect((await get('/v1/user', { 'if-none-match': `W/"nope", ${etag}` })).status).toBe(304);
    expect((await get('/v1/user', { 'if-none-match': '*' })).status).toBe(304);
  });

  it("the spending body's request_id and created_at do not change the tag", async () => {
    const url = '/v2/users/spending?group_by=category&time_period=month';
    const first = await get(url);
    const second = await get(url);
    expect(JSON.parse(first.body.toString()).request_id).not.toBe(
      JSON.parse(second.body.toString()).request_id,
    );
    expect(second.headers.etag).toBe(first.headers.etag);
    expect((await get(url, { 'if-none-match': String(first.headers.etag) })).status).toBe(304);
  });

  it('new data, new tag: after a new generation the old tag answers 200', async () => {
    const before = await get('/v1/users/balances');
    await publishNewGeneration(path);
    const deadline = Date.now() + 5000;
    let after = await get('/v1/users/balances', { 'if-none-match': String(before.headers.etag) });
    while (after.status === 304 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      after = await get('/v1/users/balances', { 'if-none-match': String(before.headers.etag) });
    }
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('errors and unauthenticated answers are never kept', async () => {
    const unauthenticated = await get('/v1/user', { authorization: '' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['cache-control']).toBe('no-store');
    expect(unauthenticated.headers.etag).toBeUndefined();
    const invalid = await get('/v2/users/spending?group_by=nope');
    expect(invalid.status).toBe(422);
    expect(invalid.headers['cache-control']).toBe('no-store');
    expect(invalid.headers.etag).toBeUndefined();
  });
});
