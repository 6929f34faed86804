/**
 * Admission takes turns between clients before a request's work starts (docs/operations.md,
 * "Overload and floods"): at most MAX_RUNNING_REQUESTS run, the others wait in their
 * client's line, and a freed place goes to the client running the fewest. So a client that
 * waits for each answer waits for about one request of each other client, however many
 * connections flood, even when every answer comes from memory (the working set is on: the
 * flood never queues at the store). On each engine: the order of turns in process, then a
 * flood of six tokens against the real server over loopback.
 */
import autocannon from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { servedDemoStore } from '../helpers/served-store.ts';
import {
  bearer,
  configOf,
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  startServerProcess,
} from '../helpers/server.ts';
import { openStore } from '../helpers/store.ts';

describe('the order in which requests start', () => {
  let store: ReadPort;
  afterAll(async () => store?.close());

  it('a client that waits for each answer starts after one request of each other client, however deep their lines', async () => {
    const demo = await demoStoreCopy(DEMO_USERS.slice(0, 4));
    const [floodA, floodB, floodC, polite] = demo.tokens as [string, string, string, string];
    store = await openStore(demo.path);
    const app = await buildApp({
      store,
      clock: createClock(DEMO_TODAY),
      config: configOf({ MAX_RUNNING_REQUESTS: '1', RATE_LIMIT_MAX: '0' }),
    });
    const started: string[] = [];
    const gates: (() => void)[] = [];
    app.get('/test/slow', async (request) => {
      started.push((request.query as { who: string }).who);
      await new Promise<void>((resolve) => gates.push(resolve));
      return { done: true };
    });
    await app.ready();
    try {
      const ask = (token: string, who: string) =>
        app.inject({ url: `/test/slow?who=${who}`, headers: bearer(token) });
      const answers = [ask(floodA, 'a0')];
      // Each flooder queues five, then the polite client asks once.
      for (let i = 1; i <= 5; i++) {
        answers.push(ask(floodA, `a${i}`), ask(floodB, `b${i}`), ask(floodC, `c${i}`));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      answers.push(ask(polite, 'polite'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(started).toEqual(['a0']);
      // One at a time: the polite client starts after one request of each other flooder.
      while (started.length < answers.length) {
        const before = started.length;
        gates.shift()?.();
        for (let waited = 0; started.length === before && waited < 5_000; waited += 5) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      for (const open of gates.splice(0)) open();
      expect(started.slice(0, 4)).toEqual(['a0', 'b1', 'c1', 'polite']);
      for (const answer of await Promise.all(answers)) expect(answer.statusCode).toBe(200);
    } finally {
      for (const open of gates.splice(0)) open();
      await app.close();
    }
  });
});

/** Spending analyses of windows ending on different days: each a new answer, from memory. */
const windows = Array.from({ length: 60 }, (_, i) => {
  const end = `2026-${String(1 + (i % 11)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  const groupBy = ['category', 'merchant', 'time_period'][i % 3];
  const period = ['day', 'week', 'month', 'quarter', 'year'][i % 5];
  return `/v2/users/spending?group_by=${groupBy}&time_period=${period}&start_date=2025-06-01&end_date=${end}`;
});

describe('a flood of six tokens, answered from memory (real server, loopback)', () => {
  it('a client that waits for each answer gets a fair share of them, all 200', async () => {
    const store = await servedDemoStore();
    const flooders: string[] = [];
    for (let i = 0; i < 6; i++) {
      flooders.push(await store.mint(DEMO_USERS[i % DEMO_USERS.length] as string));
    }
    const polite = await store.mint(DEMO_USERS[0]);
    const server = await startServerProcess({
      ...store.env,
      TODAY: DEMO_TODAY,
      RATE_LIMIT_MAX: '0',
      // Every answer computed anew from the users' transactions held in memory.
      RESPONSE_CACHE_MB: '0',
    });
    try {
      const ask = async (token: string, path: string) => {
        const response = await fetch(`${server.url}${path}`, {
          headers: bearer(token),
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        return response.status;
      };
      // Every user's transactions read once: from here on, no answer waits on the store.
      for (const token of [...flooders, polite])
        expect(await ask(token, windows[0] as string)).toBe(200);

      const politeStatuses: number[] = [];
      let flooding = true;
      const waitsForEachAnswer = (async () => {
        for (let i = 0; flooding; i++) {
          politeStatuses.push(
            await ask(polite, windows[i % windows.length] as string).catch(() => 0),
          );
        }
      })();
      const perToken = new Map<number, number>();
      const statuses = new Map<number, number>();
      let dealt = 0;
      await new Promise<void>((resolve, reject) => {
        autocannon(
          {
            url: server.url,
            // 16 connections a token: each token has as many requests in flight as
            // CLIENT_MAX_IN_FLIGHT allows, and waits its turns behind MAX_RUNNING_REQUESTS.
            connections: 96,
            duration: 6,
            timeout: 30,
            requests: [
              {
                setupRequest(request, context) {
                  context.token ??= dealt++ % flooders.length;
                  context.draws = ((context.draws as number | undefined) ?? 0) + 1;
                  return {
                    ...request,
                    method: 'GET',
                    path: windows[(context.draws as number) % windows.length],
                    headers: bearer(flooders[context.token as number] as string),
                  };
                },
                onResponse(status, _body, context) {
                  statuses.set(status, (statuses.get(status) ?? 0) + 1);
                  const token = context.token as number;
                  if (status === 200) perToken.set(token, (perToken.get(token) ?? 0) + 1);
                },
              },
            ],
          },
          (error) => (error ? reject(error) : resolve()),
        );
      });
      flooding = false;
      await waitsForEachAnswer;

      expect(politeStatuses.filter((status) => status !== 200)).toEqual([]);
      for (const status of statuses.keys()) expect([200, 429]).toContain(status);
      // Without turns at admission the polite client got about 2% of what a flooding token
      // got (the event loop served connections in arrival order); with them, about as much.
      const answered = flooders.map((_, token) => perToken.get(token) ?? 0);
      const median = [...answered].sort((a, b) => a - b)[3] as number;
      expect(median).toBeGreaterThan(0);
      expect(
        politeStatuses.length,
        `polite ${politeStatuses.length}, tokens ${answered}`,
      ).toBeGreaterThanOrEqual(median / 4);
      expect(server.output()).not.toContain('"stack"');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
