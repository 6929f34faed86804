/**
 * Abuse limits and response hardening: security headers, no CORS, proxy trust, rate limits
 * per token and per address for failed authentication, URL / header / slow-client bounds, and
 * the `{"detail": ...}` shape of every framework-level error.
 */
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { bearer, configOf, DEMO_TODAY, demoStoreCopy } from '../helpers/server.ts';
import { openStore } from '../helpers/store.ts';

let store: ReadPort;
let tokens: string[];
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  const demo = await demoStoreCopy();
  tokens = demo.tokens;
  store = await openStore(demo.path);
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await store.close();
});

async function appWith(env: Record<string, string>, extra: Partial<AppOptions> = {}) {
  const app = await buildApp({
    store,
    clock: createClock(DEMO_TODAY),
    config: configOf({
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
      ...env,
    }),
    ...extra,
  });
  apps.push(app);
  return app;
}

/** Sends raw bytes on a socket and returns everything the server writes back. */
function rawExchange(port: number, chunks: string[], pauseMs = 0): Promise<string> {
  return new Promise((resolveText, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => {
      received += data.toString();
    });
    socket.on('error', () => resolveText(received));
    socket.on('close', () => resolveText(received));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        socket.write(chunk);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
    setTimeout(() => reject(new Error(`no answer; got ${received}`)), 15_000).unref();
  });
}

function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('security headers', () => {
  it.each([
    ['/v1/user', 200],
    ['/v1/user?x=1', 401],
    ['/nope', 404],
    ['/v2/users/spending?group_by=nope', 422],
  ])('%s -> %i carries its cache policy, nosniff, a CSP and no CORS', async (url, status) => {
    const app = await appWith({});
    const headers =
      status === 401 ? { origin: 'https://evil.example' } : bearer(tokens[0] as string);
    const response = await app.inject({
      url,
      headers: { ...headers, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(status);
    // An authenticated answer may be kept privately and revalidated; nothing else is kept.
    expect(response.headers['cache-control']).toBe(
      status === 200 ? 'private, no-cache' : 'no-store',
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('a CORS preflight is not answered with CORS headers', async () => {
    const app = await appWith({});
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/v1/user',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(response.statusCode).toBe(405);
    expect(response.json()).toEqual({ detail: 'Method Not Allowed' });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('HSTS only when the request came over HTTPS through a trusted proxy', async () => {
    const trusting = await appWith({ TRUST_PROXY: '127.0.0.1' });
    const proxied = await trusting.inject({
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    const untrusting = await appWith({});
    const spoofed = await untrusting.inject({
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('RATE_LIMIT_MAX requests per token per window, then 429 with Retry-After', async () => {
    const app = await appWith({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1 minute' });
    const [mine, other] = tokens as [string, string];
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({ url: '/v1/user', headers: bearer(mine) });
      statuses.push(response.statusCode);
      expect(response.headers['ratelimit-limit']).toBe('3');
      expect(response.headers['ratelimit-remaining']).toBe(String(2 - i));
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await app.inject({ url: '/v1/user', headers: bearer(mine) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Too Many Requests' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['cache-control']).toBe('no-store');
    // Another token from the same address has its own budget; probes are never limited.
    expect((await app.inject({ url: '/v1/user', headers: bearer(other) })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    }
  });

  it('buckets a token as authentication reads the header', async () => {
    const app = await appWith({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW: '1 minute' });
    const token = tokens[0] as string;
    const call = (authorization: string) =>
      app.inject({ url: '/v1/user', headers: { authorization } }).then((r) => r.statusCode);
    // Extra blanks after the scheme: the same token, the same bucket.
    expect([await call(`Bearer ${token}`), await call(`bearer   ${token}  `)]).toEqual([200, 200]);
    // A tab instead of the space: no credentials for authentication (401), so the request is
    // counted against the address, not against the exhausted token.
    expect(await call(`Bearer\t${token}`)).toBe(401);
    expect(await call(`Bearer ${token}`)).toBe(429);
  });

  it('the window is configurable: after it passes the token may call again', async () => {
    const app = await appWith({ RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW: '300ms' });
    const headers = bearer(tokens[0] as string);
    expect((await app.inject({ url: '/v1/user', headers })).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/user', headers })).statusCode).toBe(429);
    await new Promise((r) => setTimeout(r, 450));
    expect((await app.inject({ url: '/v1/user', headers })).statusCode).toBe(200);
  });

  it('failed authentications are limited per address; a live token is still served', async () => {
    const app = await appWith({ RATE_LIMIT_MAX: '100', RATE_LIMIT_AUTH_FAILURES: '3' });
    const guesser = '198.51.100.7';
    for (let i = 0; i < 3; i++) {
      // A fresh well-formed token each time: the per-token limit alone would never trigger.
      const response = await app.inject({
        url: '/v1/user',
        headers: bearer(generateToken()),
        remoteAddress: guesser,
      });
      expect(response.statusCode).toBe(401);
    }
    // The address may be a NAT: a live token behind it is served (test/api/auth-failure-limits.test.ts).
    const served = await app.inject({
      url: '/v1/user',
      headers: bearer(tokens[0] as string),
      remoteAddress: guesser,
    });
    expect(served.statusCode).toBe(200);
    const blocked = await app.inject({
      url: '/v1/user',
      headers: bearer(generateToken()),
      remoteAddress: guesser,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ detail: 'Too Many Requests' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Other addresses are unaffected; requests without credentials never count as failures.
    const fine = await app.inject({
      url: '/v1/user',
      headers: bearer(tokens[0] as string),
      remoteAddress: '198.51.100.8',
    });
    expect(fine.statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      const anonymous = await app.inject({ url: '/v1/user', remoteAddress: '198.51.100.9' });
      expect(anonymous.statusCode).toBe(401);
    }
  });

  it('RATE_LIMIT_MAX=0 turns rate limiting off', async () => {
    const app = await appWith({ RATE_LIMIT_MAX: '0' });
    const response = await app.inject({ url: '/v1/user', headers: bearer(tokens[0] as string) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('request bounds answer in the detail shape', () => {
  it('a URL longer than MAX_URL_LENGTH -> 414', async () => {
    const app = await appWith({ MAX_URL_LENGTH: '200' });
    const response = await app.inject({
      url: `/v2/users/spending?categories=${'x'.repeat(300)}`,
      headers: bearer(tokens[0] as string),
    });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ detail: 'URI Too Long' });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('a path that cannot be decoded -> 404, as Starlette matches it against no route', async () => {
    const app = await appWith({});
    const response = await app.inject({ url: '/v1/%E0%A4%A' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  it('a request body over the limit -> 413', async () => {
    const app = await appWith({});
    const response = await app.inject({
      method: 'POST',
      url: '/v1/user',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(20_000) }),
    });
    expect([405, 413]).toContain(response.statusCode);
    expect(Object.keys(response.json())).toEqual(['detail']);
  });

  describe('over a real socket', () => {
    let port: number;
    beforeAll(async () => {
      const app = await appWith({
        MAX_HEADER_SIZE: '2048',
        HEADERS_TIMEOUT_MS: '300',
        REQUEST_TIMEOUT_MS: '300',
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
    });

    it('headers over MAX_HEADER_SIZE -> 431', async () => {
      const raw = await rawExchange(port, [
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4000)}\r\n\r\n`,
      ]);
      expect(raw.startsWith('HTTP/1.1 431')).toBe(true);
      expect(bodyOf(raw)).toEqual({ detail: 'Request Header Fields Too Large' });
    });

    it('headers sent too slowly (slowloris) -> 408, then the socket closes', async () => {
      const started = Date.now();
      const raw = await rawExchange(port, ['GET /healthz HTTP/1.1\r\n', 'Host: x\r\n'], 100);
      expect(raw.startsWith('HTTP/1.1 408')).toBe(true);
      expect(bodyOf(raw)).toEqual({ detail: 'Request Timeout' });
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('connections beyond MAX_CONNECTIONS are dropped', async () => {
      const app = await appWith({ MAX_CONNECTIONS: '2' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const limited = (app.server.address() as { port: number }).port;
      const held = [connect(limited, '127.0.0.1'), connect(limited, '127.0.0.1')];
      await Promise.all(held.map((socket) => new Promise((r) => socket.once('connect', r))));
      await new Promise((r) => setTimeout(r, 50));
      const third = await rawExchange(limited, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n']);
      expect(third).toBe('');
      for (const socket of held) socket.destroy();
      await new Promise((r) => setTimeout(r, 50));
      const later = await rawExchange(limited, [
        'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ]);
      expect(later.startsWith('HTTP/1.1 200')).toBe(true);
    });

    it('garbage instead of HTTP -> 400', async () => {
      const raw = await rawExchange(port, ['\x16\x03\x01 not http at all\r\n\r\n']);
      expect(raw.startsWith('HTTP/1.1 400')).toBe(true);
      expect(bodyOf(raw)).toEqual({ detail: 'Bad Request' });
    });

    it('answers before routing carry an x-request-id too (400, 408, 431)', async () => {
      const answers = await Promise.all([
        rawExchange(port, ['\x16\x03\x01 not http at all\r\n\r\n']),
        rawExchange(port, ['GET /healthz HTTP/1.1\r\n', 'Host: x\r\n'], 100),
        rawExchange(port, [
          `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4000)}\r\n\r\n`,
        ]),
      ]);
      const ids = answers.map((raw) => /\r\nx-request-id: ([^\r]+)\r\n/i.exec(raw)?.[1]);
      expect(answers.map((raw) => raw.slice(9, 12))).toEqual(['400', '408', '431']);
      for (const id of ids)
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(new Set(ids).size).toBe(3);
    });
  });
});

describe('configuration', () => {
  it('has a documented default for every limit', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      RATE_LIMIT_MAX: 600,
      RATE_LIMIT_WINDOW: 60_000,
      TRUST_PROXY: false,
      QUERY_TIMEOUT_MS: 10_000,
      MAX_HEADER_SIZE: 16_384,
      STORE_WATCH: true,
      // One client's share, and pressure on what hurts, not on a busy loop.
      CLIENT_MAX_IN_FLIGHT: 16,
      SHED_MAX_EVENT_LOOP_DELAY_MS: 200,
      SHED_MAX_EVENT_LOOP_UTILIZATION: 0,
      SHED_MAX_HEAP_BYTES: 'auto',
      SHED_MAX_RSS_BYTES: 'auto',
    });
    expect(loadConfig({ SHED_MAX_RSS_BYTES: '1000000' }).SHED_MAX_RSS_BYTES).toBe(1_000_000);
    expect(config.METRICS_PORT).toBeUndefined();
    expect(config.TLS_CERT_FILE).toBeUndefined();
  });

  it.each([
    [{ RATE_LIMIT_MAX: 'lots' }, 'RATE_LIMIT_MAX'],
    [{ RATE_LIMIT_WINDOW: 'soon' }, 'RATE_LIMIT_WINDOW'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ QUERY_TIMEOUT_MS: '0' }, 'QUERY_TIMEOUT_MS'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ TLS_CERT_FILE: '/tmp/cert.pem' }, 'TLS_KEY_FILE'],
    [{ SHED_MAX_EVENT_LOOP_UTILIZATION: '2' }, 'SHED_MAX_EVENT_LOOP_UTILIZATION'],
    [{ STORE_WATCH: 'perhaps' }, 'STORE_WATCH'],
    [{ SHED_MAX_HEAP_BYTES: 'lots' }, 'SHED_MAX_HEAP_BYTES'],
    [{ CLIENT_MAX_IN_FLIGHT: '-1' }, 'CLIENT_MAX_IN_FLIGHT'],
  ])('a bad value stops start-up naming the variable: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}=`));
  });

  it('parses durations and proxy lists', () => {
    expect(loadConfig({ RATE_LIMIT_WINDOW: '30s' }).RATE_LIMIT_WINDOW).toBe(30_000);
    expect(loadConfig({ RATE_LIMIT_WINDOW: '2h' }).RATE_LIMIT_WINDOW).toBe(7_200_000);
    expect(loadConfig({ RATE_LIMIT_WINDOW: '1500' }).RATE_LIMIT_WINDOW).toBe(1500);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });
});
