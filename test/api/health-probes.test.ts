/**
 * Load balancers may probe with HEAD, so `/healthz` and `/readyz` answer
 * it (their 405 `Allow` says `GET, HEAD`); every other route keeps FastAPI's 405 on HEAD.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { SECURITY_HEADERS } from '../../src/http/security.ts';
import { type ReadPort, StoreUnavailableError } from '../../src/port/read-port.ts';
import { bearer, configOf, DEMO_TODAY, demoStoreCopy } from '../helpers/server.ts';
import { DelegatingPort, openStore } from '../helpers/store.ts';

/** The demo store, or one that is down. */
class SwitchableStore extends DelegatingPort {
  down = false;
  protected override read<T>(_method: string, run: () => Promise<T>): Promise<T> {
    return this.down ? Promise.reject(new StoreUnavailableError('down')) : run();
  }
}

let inner: ReadPort;
let token: string;
beforeAll(async () => {
  const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
  token = demo.tokens[0] as string;
  inner = await openStore(demo.path);
});
afterAll(() => inner.close());

describe('HEAD on the probes', () => {
  it('HEAD /healthz and /readyz answer as GET does, without a body', async () => {
    const store = new SwitchableStore(inner);
    const app = await buildApp({
      store,
      clock: createClock(DEMO_TODAY),
      config: configOf({
        RATE_LIMIT_MAX: '100',
        SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
        SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
      }),
    });
    for (const url of ['/healthz', '/readyz']) {
      const get = await app.inject({ method: 'GET', url });
      const head = await app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['x-request-id']).toBeTruthy();
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(head.headers[name], name).toBe(value);
      }
    }
    // Readiness asks the store on HEAD too.
    store.down = true;
    expect((await app.inject({ method: 'HEAD', url: '/readyz' })).statusCode).toBe(503);
    expect((await app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
    store.down = false;
    await app.close();
  });

  it('other methods on the probes: 405 with Allow: GET, HEAD', async () => {
    const app = await buildApp({ store: inner, clock: createClock(DEMO_TODAY) });
    for (const url of ['/healthz', '/readyz']) {
      for (const method of ['POST', 'DELETE', 'OPTIONS'] as const) {
        const response = await app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(405);
        expect(response.headers.allow).toBe('GET, HEAD');
        expect(response.json()).toEqual({ detail: 'Method Not Allowed' });
      }
    }
    await app.close();
  });

  it('every other route keeps 405 on HEAD, with Allow: GET', async () => {
    const app = await buildApp({ store: inner, clock: createClock(DEMO_TODAY) });
    for (const url of ['/v1/user', '/v2/users/spending', '/v1/users/income', '/v1/links']) {
      const response = await app.inject({ method: 'HEAD', url, headers: bearer(token) });
      expect(response.statusCode, url).toBe(405);
      expect(response.headers.allow).toBe('GET');
    }
    await app.close();
  });
});
