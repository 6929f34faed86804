/**
 * Failed authentications from one address (a shared NAT or proxy) must not
 * lock out the valid tokens behind it. Past the failure budget only failing attempts get 429;
 * malformed ones are refused before any store lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { bearer, configOf, DEMO_TODAY, DEMO_USERS, demoStoreCopy } from '../helpers/server.ts';
import { DelegatingPort, openStore } from '../helpers/store.ts';

/** Counts the store's reads. */
class CountingStore extends DelegatingPort {
  queries = 0;
  protected override read<T>(_method: keyof ReadPort, run: () => Promise<T>): Promise<T> {
    this.queries++;
    return run();
  }
}

let inner: ReadPort;
let tokens: string[];
beforeAll(async () => {
  const demo = await demoStoreCopy(DEMO_USERS.slice(0, 2));
  tokens = demo.tokens;
  inner = await openStore(demo.path);
});
afterAll(() => inner.close());

async function appWith(store: ReadPort, failures: number) {
  return buildApp({
    store,
    clock: createClock(DEMO_TODAY),
    config: configOf({
      RATE_LIMIT_MAX: '1000',
      RATE_LIMIT_AUTH_FAILURES: String(failures),
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    }),
  });
}

describe('the failed-authentication budget of an address', () => {
  it('30+ failures from one address: a valid token behind it is still served, bad ones get 429', async () => {
    const store = new CountingStore(inner);
    const app = await appWith(store, 30);
    const nat = '203.0.113.50';
    const call = (authorization?: string) =>
      app.inject({
        url: '/v1/user',
        headers: authorization ? { authorization } : {},
        remoteAddress: nat,
      });
    for (let i = 0; i < 30; i++) {
      expect((await call(`Bearer ${generateToken()}`)).statusCode).toBe(401);
    }
    // Over the budget: a failing well-formed token is refused with 429 and Retry-After.
    const guess = await call(`Bearer ${generateToken()}`);
    expect(guess.statusCode).toBe(429);
    expect(guess.json()).toEqual({ detail: 'Too Many Requests' });
    expect(Number(guess.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(guess.headers['www-authenticate']).toBeUndefined();

    // Valid tokens from the same address are served, again and again.
    for (const token of tokens) {
      for (let i = 0; i < 3; i++) {
        const served = await call(`Bearer ${token}`);
        expect(served.statusCode).toBe(200);
        expect(served.json()).toMatchObject({ id: expect.any(String) });
      }
    }

    // Further failing attempts still get 429; malformed ones never reach the store.
    expect((await call(`Bearer ${generateToken()}`)).statusCode).toBe(429);
    const before = store.queries;
    for (const authorization of [
      'Bearer pat_short',
      `Bearer ${(tokens[0] as string).slice(0, -1)}x`,
      'Basic dXNlcjpwYXNz',
      'Bearer',
    ]) {
      const refused = await call(authorization);
      expect(refused.statusCode, authorization).toBe(429);
      expect(refused.json()).toEqual({ detail: 'Too Many Requests' });
    }
    expect(store.queries).toBe(before);
    // A request presenting no credential is no guess: it is told to authenticate.
    expect((await call()).statusCode).toBe(401);
    // Probes are never limited.
    expect((await app.inject({ url: '/healthz', remoteAddress: nat })).statusCode).toBe(200);
    // Another address has its own budget.
    const elsewhere = await app.inject({
      url: '/v1/user',
      headers: bearer(generateToken()),
      remoteAddress: '203.0.113.51',
    });
    expect(elsewhere.statusCode).toBe(401);
    await app.close();
  });

  it('a revoked-or-unknown token keeps failing with 429, not 401, past the budget', async () => {
    const app = await appWith(inner, 2);
    const address = '203.0.113.60';
    const unknown = generateToken();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await app.inject({
        url: '/v1/users/balances',
        headers: bearer(unknown),
        remoteAddress: address,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
    const valid = await app.inject({
      url: '/v1/users/balances',
      headers: bearer(tokens[0] as string),
      remoteAddress: address,
    });
    expect(valid.statusCode).toBe(200);
    await app.close();
  });
});
