/**
 * Publishing costs no request: the real server process, with its default shedding, serves
 * clients asking at a steady pace (each waits for its answer, several users, every kind of
 * read: pages, spending, recurring streams, balances) while four new generations are
 * published one after another (a new file renamed into place, a new generation loaded into
 * the database). Every answer is 200 and each names a generation the clients saw in order.
 */
import { describe, expect, it } from 'vitest';
import { GENERATION_HEADER } from '../../src/http/revalidation.ts';
import { servedDemoStore } from '../helpers/served-store.ts';
import { bearer, DEMO_TODAY, DEMO_USERS, startServerProcess } from '../helpers/server.ts';

const PUBLISHES = 4;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const URLS = [
  '/v2/users/transactions?page=1&page_size=50',
  '/v2/users/spending?group_by=category&time_period=month',
  '/v2/users/recurring',
  '/v1/users/balances',
  '/v2/users/spending?group_by=merchant&time_period=week',
  '/v1/user',
];

describe('publishing while clients ask', () => {
  it('four publishes fail no request of clients waiting for their answers', async () => {
    const store = await servedDemoStore();
    for (let i = 0; i < PUBLISHES; i++) await store.ready();
    const tokens = await Promise.all(DEMO_USERS.slice(0, 4).map((user) => store.mint(user)));
    const server = await startServerProcess({
      ...store.env,
      TODAY: DEMO_TODAY,
      STORE_WATCH_DEBOUNCE_MS: '100',
      // Not the rate limit's test: on a quick machine a client asking every 20 ms for 40 s
      // passes its 600 a minute, and its 429s are the limit's, not the publishes'.
      RATE_LIMIT_MAX: '0',
    });
    try {
      const failures: string[] = [];
      const seen: string[] = [];
      let served = 0;
      let asking = true;
      const client = async (token: string, first: number) => {
        for (let i = first; asking; i++) {
          const url = URLS[i % URLS.length] as string;
          try {
            const response = await fetch(`${server.url}${url}`, {
              headers: bearer(token),
              signal: AbortSignal.timeout(30_000),
            });
            await response.arrayBuffer();
            if (response.status !== 200) failures.push(`${url} -> ${response.status}`);
            else served++;
            const generation = response.headers.get(GENERATION_HEADER) ?? '';
            if (seen.at(-1) !== generation && !seen.includes(generation)) seen.push(generation);
          } catch (error) {
            failures.push(`${url} -> ${String(error)}`);
          }
          await sleep(20);
        }
      };
      /** Waits until the clients have seen more than `count` generations. */
      const seenMoreThan = async (count: number, what: string) => {
        for (let waited = 0; seen.length <= count; waited += 50) {
          if (waited > 30_000) throw new Error(`the clients never saw ${what}`);
          await sleep(50);
        }
      };
      const clients = tokens.map((token, k) => client(token, k));
      // The generation served first, seen before anything is published: on a busy machine the
      // first answers took over 2 s, and a publish made before them was never counted.
      await seenMoreThan(0, 'the store served at start');
      await sleep(300);
      for (let i = 0; i < PUBLISHES; i++) {
        const before = seen.length;
        await store.publish();
        await seenMoreThan(before, `the store of publish ${i + 1}`);
        await sleep(300);
      }
      asking = false;
      await Promise.all(clients);

      expect(failures).toEqual([]);
      expect(seen, JSON.stringify(seen)).toHaveLength(PUBLISHES + 1);
      expect(served).toBeGreaterThan(40);
      expect(server.output()).not.toContain('"stack"');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);
});
