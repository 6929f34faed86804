/**
 * How event streams end, on the real server process (the Docker image's command): after
 * EVENT_STREAM_LIFETIME_MS, cleanly, the client resuming with its Last-Event-ID; and on SIGTERM,
 * every stream cleanly before the drain ends (a client that does not read included), the
 * process exiting 0 well within SHUTDOWN_GRACE_MS.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openEventStream } from '../helpers/event-stream.ts';
import {
  bearer,
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  startServerProcess,
} from '../helpers/server.ts';

const USERS = DEMO_USERS.slice(0, 2);

describe('event streams end', () => {
  it('after their lifetime, cleanly; the client resumes with its Last-Event-ID', async () => {
    const demo = await demoStoreCopy(USERS);
    const server = await startServerProcess({
      DATABASE_PATH: demo.path,
      TODAY: DEMO_TODAY,
      EVENT_STREAM_LIFETIME_MS: '1500',
    });
    try {
      const url = `${server.url}/v2/users/events`;
      const headers = bearer(demo.tokens[0] as string);
      const opened = Date.now();
      const stream = await openEventStream(url, headers);
      const ready = await stream.nextEvent();
      expect(await stream.ended).toBe('clean');
      expect(Date.now() - opened).toBeGreaterThanOrEqual(1500);
      const resumed = await openEventStream(url, {
        ...headers,
        'last-event-id': ready.id as string,
      });
      expect(await resumed.nextEvent()).toEqual(ready);
      resumed.close();
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('on SIGTERM, every one cleanly, and the process exits 0 within its grace', async () => {
    const demo = await demoStoreCopy(USERS);
    const grace = 8000;
    const server = await startServerProcess({
      DATABASE_PATH: demo.path,
      TODAY: DEMO_TODAY,
      SHUTDOWN_GRACE_MS: String(grace),
    });
    const url = `${server.url}/v2/users/events`;
    const streams = await Promise.all(
      [0, 0, 1].map((user) => openEventStream(url, bearer(demo.tokens[user] as string))),
    );
    for (const stream of streams) expect((await stream.nextEvent()).event).toBe('ready');
    // A client that asks and never reads.
    const { port } = new URL(server.url);
    const silent = connect(Number(port), '127.0.0.1');
    silent.on('error', () => {});
    silent.write(
      `GET /v2/users/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${demo.tokens[1]}\r\n\r\n`,
    );
    silent.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    for (const stream of streams) expect(await stream.ended).toBe('clean');
    const { code, signal } = await server.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(grace);
    silent.destroy();
  });
});
