/**
 * The HTTP side of faults and pressure (docs/operations.md, "Overload and floods"): one client's flood is that client's
 * problem (429/503 for it, 200 for the others), a refused request stops where it is refused
 * (no second answer, no spent budget, no line per request in the log), and the small HTTP
 * defects: the keep-alive bound, a URL past the header budget, an HTTP/2.0 request line. The
 * flood runs against the real server process over loopback, bounded in requests and in time.
 */
import { connect } from 'node:net';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { buildLoggedApp } from '../helpers/logged-app.ts';
import {
  bearer,
  configOf,
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  startServerProcess,
} from '../helpers/server.ts';
import { openStore } from '../helpers/store.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends raw bytes on one connection; resolves with everything written back once it closes. */
function rawExchange(
  port: number,
  chunks: string[],
  pauseMs = 0,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('data', (data) => {
      text += data.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      resolve({ text, closed });
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) break;
        socket.write(chunk);
        if (pauseMs) await sleep(pauseMs);
      }
    });
    // A connection the server keeps open is reported as such after a while.
    setTimeout(() => {
      socket.destroy();
      resolve({ text, closed });
    }, 4000).unref();
  });
}

const statusLines = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);

function flood(options: {
  url: string;
  path: string;
  authorization: string;
  connections: number;
  seconds: number;
}): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${options.url}${options.path}`,
        connections: options.connections,
        duration: options.seconds,
        timeout: 10,
        requests: [{ headers: { authorization: options.authorization } }],
      },
      (error) => (error ? reject(error) : resolve(statuses)),
    );
    instance.on('response', (_client: unknown, status: number) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
}

describe('a flood is the flooder’s problem (real server, loopback)', () => {
  it('a bogus-token flood and a valid-token flood get 429/503; a client at 10 requests/s keeps getting 200', async () => {
    const demo = await demoStoreCopy(DEMO_USERS.slice(0, 2));
    const [legit, flooder] = demo.tokens as [string, string];
    const server = await startServerProcess({
      DATABASE_PATH: demo.path,
      TODAY: DEMO_TODAY,
      // The valid flooder is refused by its concurrency and by shedding, not only by its
      // rate limit; pressure is declared at a tiny event-loop delay, so shedding is exercised.
      RATE_LIMIT_MAX: '3000',
      CLIENT_MAX_IN_FLIGHT: '4',
      SHED_MAX_EVENT_LOOP_DELAY_MS: '5',
      SHED_SAMPLE_INTERVAL_MS: '200',
    });
    try {
      const spending = '/v2/users/spending?group_by=category&time_period=month';
      const ask = async (token: string) => {
        const response = await fetch(`${server.url}${spending}`, {
          headers: bearer(token),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        return response.status;
      };
      // Both clients are known before the flood (their answers are cached too).
      expect(await ask(legit)).toBe(200);
      expect(await ask(flooder)).toBe(200);

      const legitStatuses: number[] = [];
      let flooding = true;
      const steady = (async () => {
        while (flooding) {
          const started = Date.now();
          legitStatuses.push(await ask(legit).catch(() => 0));
          await sleep(Math.max(0, 100 - (Date.now() - started)));
        }
      })();
      const [bogus, valid] = await Promise.all([
        flood({
          url: server.url,
          path: '/v1/user',
          authorization: `Bearer ${generateToken()}`,
          connections: 32,
          seconds: 8,
        }),
        flood({
          url: server.url,
          path: spending,
          authorization: `Bearer ${flooder}`,
          connections: 32,
          seconds: 8,
        }),
      ]);
      flooding = false;
      await steady;

      // The flooders got their refusals and nothing worse.
      const refused = (statuses: Map<number, number>) =>
        (statuses.get(429) ?? 0) + (statuses.get(503) ?? 0);
      expect(refused(bogus)).toBeGreaterThan(0);
      expect(refused(valid)).toBeGreaterThan(0);
      for (const statuses of [bogus, valid]) {
        for (const status of statuses.keys()) expect([200, 401, 429, 503]).toContain(status);
      }
      // The steady client was served every time.
      expect(legitStatuses.length).toBeGreaterThan(5);
      expect(legitStatuses.filter((status) => status !== 200)).toEqual([]);

      // Service goes on; the log stayed small: no stack, no second answer, refusals summed up.
      await sleep(500);
      expect(await ask(legit)).toBe(200);
      const log = server.output();
      expect(log).not.toContain('FST_ERR_REP_ALREADY_SENT');
      expect(log).not.toContain('"stack"');
      const floodRequests = [...bogus.values(), ...valid.values()].reduce((a, b) => a + b, 0);
      // A refusal is held a second before it is sent (REFUSAL_DELAY_MS): the floods, asking
      // again at once, got at most one per connection per second (64 connections, 8 s).
      const refusedByAdmission = refused(bogus) + refused(valid);
      expect(refusedByAdmission).toBeLessThanOrEqual(64 * 10);
      // Requests refused at admission have no line of their own: the log grows with what is
      // served (the flood's and the steady client's), not with the flood.
      const lines = log.split('\n');
      const served = floodRequests - refusedByAdmission + legitStatuses.length;
      expect(lines.length).toBeLessThan(served + 100);
      expect(lines.filter((line) => line.includes('"statusCode":503'))).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    // The summary of the last refusals is written on the way out.
    expect(server.output()).toContain('"msg":"refused requests"');
  }, 120_000);
});

describe('admission rules', () => {
  let store: ReadPort;
  let tokens: string[];
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    const demo = await demoStoreCopy(DEMO_USERS.slice(0, 2));
    tokens = demo.tokens;
    store = await openStore(demo.path);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await store.close();
  });

  /** An app whose pressure the test sets (no sampling during the test) and a slow route. */
  async function appWith(env: Record<string, string>) {
    const { app, text } = await buildLoggedApp('info', {
      store,
      clock: createClock(DEMO_TODAY),
      config: configOf({ SHED_SAMPLE_INTERVAL_MS: '3600000', ...env }),
    });
    const gates: (() => void)[] = [];
    app.get('/test/slow', async () => {
      await new Promise<void>((resolve) => gates.push(resolve));
      return { done: true };
    });
    await app.ready();
    apps.push(app);
    const releaseAll = () => {
      for (const release of gates.splice(0)) release();
    };
    return { app, text, releaseAll };
  }

  it('a shed request stops there: one answer, no spent rate limit, no line of its own', async () => {
    const { app, text, releaseAll } = await appWith({ RATE_LIMIT_MAX: '5' });
    const [busy, other] = tokens as [string, string];
    const running = app.inject({ url: '/test/slow', headers: bearer(busy) });
    await sleep(20);
    app.admission.monitor.force(['eventLoopDelay']);
    for (let i = 0; i < 3; i++) {
      const shed = await app.inject({ url: '/v1/user', headers: bearer(busy) });
      expect(shed.statusCode).toBe(503);
      expect(shed.json()).toEqual({ detail: 'Service Unavailable' });
      expect(Number(shed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // Another client, nothing running: served under the same pressure.
    expect((await app.inject({ url: '/v1/user', headers: bearer(other) })).statusCode).toBe(200);
    app.admission.monitor.force([]);
    releaseAll();
    expect((await running).statusCode).toBe(200);
    // Only the slow request and this one count against the limit of 5.
    const after = await app.inject({ url: '/v1/user', headers: bearer(busy) });
    expect(after.statusCode).toBe(200);
    expect(after.headers['ratelimit-remaining']).toBe('3');
    await app.close();
    const log = text();
    expect(log).not.toContain('FST_ERR_REP_ALREADY_SENT');
    expect(log).not.toContain('"statusCode":503');
    expect(log).toContain('"msg":"refused requests"');
    expect(log).toContain('"shed":3');
  });

  it('one client cannot hold more than CLIENT_MAX_IN_FLIGHT requests; the next gets 429', async () => {
    const { app, releaseAll } = await appWith({ CLIENT_MAX_IN_FLIGHT: '2', RATE_LIMIT_MAX: '0' });
    const [busy, other] = tokens as [string, string];
    const running = [1, 2].map(() => app.inject({ url: '/test/slow', headers: bearer(busy) }));
    await sleep(20);
    const third = await app.inject({ url: '/v1/user', headers: bearer(busy) });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ detail: 'Too Many Requests' });
    expect(third.headers['retry-after']).toBe('1');
    expect((await app.inject({ url: '/v1/user', headers: bearer(other) })).statusCode).toBe(200);
    releaseAll();
    for (const response of await Promise.all(running)) expect(response.statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/user', headers: bearer(busy) })).statusCode).toBe(200);
  });

  it('a rate-limited request is refused before authentication and the store', async () => {
    const { app } = await appWith({ RATE_LIMIT_MAX: '2' });
    const bogus = generateToken();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await app.inject({ url: '/v1/user', headers: bearer(bogus) })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
    // The same malformed credential varied: one bucket, the address's.
    const varied = [];
    for (let i = 0; i < 4; i++) {
      varied.push(
        (
          await app.inject({
            url: '/v1/user',
            headers: { authorization: `Bearer nonsense-${i}` },
            remoteAddress: '203.0.113.77',
          })
        ).statusCode,
      );
    }
    expect(varied).toEqual([401, 401, 429, 429]);
  });
});

describe('HTTP bounds over a real socket', () => {
  let port: number;
  let app: FastifyInstance;
  let store: ReadPort;
  beforeAll(async () => {
    const demo = await demoStoreCopy([]);
    store = await openStore(demo.path);
    app = await buildApp({
      store,
      clock: createClock(DEMO_TODAY),
      config: configOf({ MAX_REQUESTS_PER_SOCKET: '3', RATE_LIMIT_MAX: '0' }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('the last request a keep-alive connection may carry is answered, then the connection closes', async () => {
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const { text, closed } = await rawExchange(port, Array(5).fill(request), 100);
    expect(statusLines(text)).toEqual(['200', '200', '200']);
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers[2]?.toLowerCase()).toContain('connection: close');
    for (const answer of answers) expect(answer.toLowerCase()).toContain('x-request-id: ');
    expect(closed).toBe(true);
  });

  it('a URL longer than the whole header budget answers 414, not 431', async () => {
    const url = `/v1/user?q=${'a'.repeat(20_000)}`;
    const { text } = await rawExchange(port, [`GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(statusLines(text)).toEqual(['414']);
    expect(text).toContain('{"detail":"URI Too Long"}');
    expect(text.toLowerCase()).toContain('x-request-id: ');
    // Headers over the budget are still 431.
    const big = await rawExchange(port, [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(statusLines(big.text)).toEqual(['431']);
  });

  it.each(['1.2', '1.9', '3.0', '9.9', '0.9'])(
    'a request line naming HTTP/%s answers 505 as documented, then the connection closes',
    async (version) => {
      const request = `GET /healthz HTTP/${version}\r\nHost: x\r\n\r\n`;
      const { text, closed } = await rawExchange(port, [request]);
      expect(statusLines(text)).toEqual(['505']);
      expect(text).toContain('{"detail":"HTTP Version Not Supported"}');
      expect(closed).toBe(true);
    },
  );

  it('a request line naming HTTP/2.0 answers 505 and the connection closes', async () => {
    const { text, closed } = await rawExchange(port, ['GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n']);
    expect(statusLines(text)).toEqual(['505']);
    expect(text).toContain('{"detail":"HTTP Version Not Supported"}');
    expect(closed).toBe(true);
  });
});
