/**
 * A client that stops reading its event stream is cut by the stalled-reader guard, and the
 * other streams never wait for it (docs/api.md, "GET /v2/users/events"). Over real sockets to
 * the app; the generations are a source of this test's own, published one after another: a
 * frame is a few hundred bytes, so megabytes of them are needed before a socket stays full
 * (a change set per frame would take hours).
 */
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { PortLease, PortSource, ServeListener } from '../../src/port/hot-swap.ts';
import type { ReadPort, UserChange } from '../../src/port/read-port.ts';
import { generateToken, hashToken } from '../../src/tokens/token.ts';
import { openEventStream } from '../helpers/event-stream.ts';
import { configOf } from '../helpers/server.ts';

/** Generations g0, g1, ... of one lineage, each changing every user's balances. */
class Generations implements PortSource {
  private readonly ids = ['g0'];
  private readonly listeners = new Set<ServeListener>();
  current: ReadPort;

  constructor(private readonly owners: Map<string, string>) {
    this.current = this.portAt(0);
  }

  private portAt(seq: number): ReadPort {
    const port = {
      generation: this.ids[seq] as string,
      // One list for every port: a generation's place is all descent reads of it.
      sync: { lineage: 'g0', seq, logFloor: 0, generations: this.ids, cursorKey: 'key' },
      tokenOwner: async (tokenHash: string) => {
        const userId = this.owners.get(tokenHash);
        return userId ? { userId, expiresAtMs: null } : null;
      },
      userChanges: async (userIds: readonly string[]): Promise<UserChange[]> =>
        userIds.map((userId) => ({
          userId,
          added: 0,
          modified: 0,
          removed: 0,
          tables: ['balances'],
        })),
    };
    return port as unknown as ReadPort;
  }

  lease(): PortLease {
    return { port: this.current, release() {} };
  }

  onServe(listener: ServeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(): void {
    const previous = this.current;
    this.ids.push(`g${this.ids.length}`);
    this.current = this.portAt(this.ids.length - 1);
    for (const listener of this.listeners) listener(this.lease(), previous);
  }
}

describe('an event stream whose client stops reading', () => {
  const reader = generateToken();
  const stalled = generateToken();
  const source = new Generations(
    new Map([
      [hashToken(reader), 'u_reader'],
      [hashToken(stalled), 'u_stalled'],
    ]),
  );
  let close = async () => {};
  afterAll(() => close());

  it('is cut once its socket stays full, while the others get every event', async () => {
    const app = await buildApp({
      store: source,
      config: configOf({ STALLED_READER_MS: '1000', RATE_LIMIT_MAX: '0' }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
    const { port } = app.server.address() as AddressInfo;
    // The server's end of each connection, by the client's port: to see the cut as it comes
    // (a paused client notices a reset only once it reads again).
    const accepted = new Map<number, Socket>();
    app.server.on('connection', (socket: Socket) => accepted.set(socket.remotePort ?? 0, socket));

    const reading = await openEventStream(`http://127.0.0.1:${port}/v2/users/events`, {
      authorization: `Bearer ${reader}`,
    });
    expect((await reading.nextEvent()).event).toBe('ready');
    // The stalled client reads until its stream is open, then never again.
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const ended = new Promise<void>((resolve) => {
      socket.once('error', () => resolve());
      socket.once('close', () => resolve());
    });
    await new Promise<void>((resolve) => {
      let open = false;
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (!open && received.includes('event: ready')) {
          open = true;
          socket.pause();
          resolve();
        }
      });
      socket.write(
        `GET /v2/users/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stalled}\r\n\r\n`,
      );
    });

    // About 10 MB of events to each stream: past what loopback's buffers hold (about 4 MB).
    const generations = 60_000;
    for (let k = 0; k < generations; k++) {
      source.publish();
      // The hub follows each generation before the next is published (it passes over one
      // replaced before its turn).
      await yieldToLoop();
    }
    const last = `g${generations}`;
    let event = await reading.nextEvent();
    let told = 1;
    while (event.id !== last) {
      event = await reading.nextEvent();
      told++;
    }
    expect(told).toBe(generations);
    expect(event.data).toEqual({
      generation: last,
      previous_generation: `g${generations - 1}`,
      transactions: { added: 0, modified: 0, removed: 0 },
      tables: ['balances'],
    });
    // STALLED_READER_MS after its socket filled, the server cut it.
    const cut = accepted.get(socket.localPort ?? 0);
    if (!cut?.destroyed) await new Promise((resolve) => cut?.once('close', resolve));
    // Reading again, the client finds its answer visibly cut short: the chunked body never
    // ends.
    socket.resume();
    await ended;
    expect(received.startsWith('HTTP/1.1 200')).toBe(true);
    expect(received.endsWith('\r\n0\r\n\r\n')).toBe(false);
    reading.close();
  }, 120_000);
});
