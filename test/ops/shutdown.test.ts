/**
 * Graceful shutdown of the real server process (the Docker image's command): on SIGTERM the
 * requests in flight finish, new ones are refused (or get 503 on a kept-alive connection),
 * the store closes and the process exits 0 well within SHUTDOWN_GRACE_MS. A hardware fault's
 * signal (src/main.ts, FAULTS) is not a shutdown: the process dies of it.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer, DEMO_TODAY, demoStoreCopy, startServerProcess } from '../helpers/server.ts';
import { makeTempDir } from '../helpers/store.ts';

const HEAVY =
  '/v2/users/spending?group_by=merchant&time_period=day&include_income=true&start_date=2025-01-01';

interface Outcome {
  status: number | 'error';
  error?: string;
  bytes: number;
}

function get(url: string, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const outgoing = request(url, { headers, agent: false }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', (error) => resolve({ status: 'error', error: String(error), bytes }));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: 'error', error: error.code ?? String(error), bytes: 0 }),
    );
    outgoing.end();
  });
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('graceful shutdown', () => {
  it('SIGTERM under load: in-flight requests finish, new ones are refused, exit 0 in time', async () => {
    const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
    const token = demo.tokens[0] as string;
    const grace = 15_000;
    const server = await startServerProcess({
      DATABASE_PATH: demo.path,
      TODAY: DEMO_TODAY,
      DB_POOL_SIZE: '1',
      // Every heavy request queues for the one connection: none shares a cached answer, nor
      // the working set's memory.
      RESPONSE_CACHE_MB: '0',
      WORKING_SET_MB: '0',
      RATE_LIMIT_MAX: '0',
      // One client sends all of them at once: no bound on its concurrency, no shedding.
      CLIENT_MAX_IN_FLIGHT: '0',
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHUTDOWN_GRACE_MS: String(grace),
      // `incoming request` lines are at debug level (requests refused at admission are summed
      // up, not logged one by one): this test counts them to know every request arrived.
      LOG_LEVEL: 'debug',
    });
    const headers = bearer(token);
    expect((await get(`${server.url}/v1/user`, headers)).status).toBe(200);

    const total = 24;
    const inFlight = Array.from({ length: total }, () => get(`${server.url}${HEAVY}`, headers));
    // One more on a kept-alive connection, queued behind the others.
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let pipelined = '';
    socket.on('data', (data) => {
      pipelined += data.toString();
    });
    const socketClosed = new Promise((r) => socket.on('close', r));
    socket.on('error', () => {});
    const raw = `GET ${HEAVY} HTTP/1.1\r\nHost: x\r\nAuthorization: ${headers.authorization}\r\n\r\n`;
    socket.write(raw);
    // Wait until the server has received every one of them.
    const deadline = Date.now() + 20_000;
    while (count(server.output(), '"msg":"incoming request"') < total + 2) {
      if (Date.now() > deadline) throw new Error(`requests not received:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const unfinishedAtSignal = total + 2 - count(server.output(), '"msg":"request completed"');
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const late = await get(`${server.url}/v1/user`, headers);
    // A request arriving on a connection that is still open gets 503 in the detail shape.
    socket.write(raw.replace(HEAVY, '/v1/user'));
    await socketClosed;

    const outcomes = await Promise.all(inFlight);
    const { code, signal } = await server.exited;
    const elapsed = Date.now() - signalledAt;

    expect(unfinishedAtSignal).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome.status !== 200)).toEqual([]);
    expect(outcomes.every((outcome) => outcome.bytes > 1000)).toBe(true);
    // Arriving after the signal: refused (the listener is closed) or 503.
    expect(
      late.status === 503 || (late.status === 'error' && late.error === 'ECONNREFUSED'),
      JSON.stringify(late),
    ).toBe(true);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(elapsed).toBeLessThan(grace);
    const responses = pipelined.split(/(?=HTTP\/1\.1 )/);
    expect(responses.map((text) => text.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 503']);
    expect(responses[1]).toContain('{"detail":"Service Unavailable"}');
    expect(responses[1]?.toLowerCase()).toContain('connection: close');
    // ... and says when to try again (another replica, or this one restarted).
    expect(responses[1]?.toLowerCase()).toContain('retry-after: 5');
    const log = server.output();
    expect(log).toContain('shutting down: finishing in-flight requests');
    expect(log).toContain('"msg":"shut down"');
    expect(log).not.toContain(token);
  });

  it('SIGSEGV (a crash in native code) kills the process by the signal, at once: no graceful close', async () => {
    const demo = await demoStoreCopy([]);
    const server = await startServerProcess({ DATABASE_PATH: demo.path, TODAY: DEMO_TODAY });
    server.child.kill('SIGSEGV');
    const killer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
    const exit = await server.exited;
    clearTimeout(killer);
    expect(exit).toEqual({ code: null, signal: 'SIGSEGV' });
    expect(server.output()).not.toContain('shutting down');
  });

  it('exits 1 with a message naming the variable when the configuration is bad', async () => {
    await expect(startServerProcess({ RATE_LIMIT_MAX: 'lots' })).rejects.toThrow(
      /finance-api: invalid configuration: RATE_LIMIT_MAX="lots"/,
    );
  });

  it('exits 1 with the documented line when the store file is missing', async () => {
    const missing = join(makeTempDir('missing-store'), 'finance.duckdb');
    const failure = await startServerProcess({ DATABASE_PATH: missing }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain(`finance-api: store file not found: ${missing}\n`);
    expect(failure).not.toContain('Error:');
  });
});
