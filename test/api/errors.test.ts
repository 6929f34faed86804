/**
 * The error model of docs/api.md ("Authentication and errors"): FastAPI's `{"detail": ...}`
 * bodies for 404, 405 (with Allow), 422, 500 (no internals) and 503, and `x-request-id` on every
 * response. Against the real app and a real DuckDB store; the failing store is a wrapper.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { StoreUnavailableError } from '../../src/port/read-port.ts';
import { generateToken, hashToken } from '../../src/tokens/token.ts';
import {
  buildStoreFromCsv,
  DelegatingPort,
  makeTempDir,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

const token = generateToken();
const AUTH = { authorization: `Bearer ${token}` };

const ENDPOINTS = [
  '/v1/user',
  '/v2/users/transactions',
  '/v1/links',
  '/v1/users/balances',
  '/v1/users/balance-history',
  '/v1/users/income',
  '/v1/users/liabilities',
  '/v1/accounts',
  '/v2/users/spending',
  '/v1/users/spending',
];

/** Answers the token lookup, then fails every other query the way `mode` says. */
class FailingStore extends DelegatingPort {
  mode: 'ok' | 'crash' | 'unavailable' = 'ok';
  protected override read<T>(method: string, run: () => Promise<T>): Promise<T> {
    if (this.mode === 'ok' || method === 'tokenOwner') return run();
    if (this.mode === 'unavailable') {
      return Promise.reject(new StoreUnavailableError('database file /secret/path is gone'));
    }
    return Promise.reject(
      new Error(`Binder Error: column "secret_column" not found in SELECT * FROM transactions`),
    );
  }
}

let app: FastifyInstance;
let store: FailingStore;

beforeAll(async () => {
  const dir = makeTempDir('errors');
  await writeCsvFixture(dir, {
    users: [{ id: 'u1', name: 'Ann', email: 'ann@example.com', created_at: '2024-01-01 00:00:00' }],
    links: [
      {
        id: 'l1',
        user_id: 'u1',
        type: 'institution',
        name: 'Bank',
        status: 'active',
        created_at: '2024-01-01 00:00:00',
      },
    ],
    accounts: [{ id: 'a1', user_id: 'u1', link_id: 'l1', name: 'Checking', type: 'depository' }],
    transactions: [
      {
        id: 't1',
        user_id: 'u1',
        account_id: 'a1',
        transacted_at: '2026-03-01',
        amount: '10.00',
        direction: 'DEBIT',
        description: 'COFFEE',
        category: 'Food and Drink',
      },
    ],
    access_tokens: [
      { token_hash: hashToken(token), user_id: 'u1', created_at: '2024-01-01 00:00:00' },
    ],
  });
  store = new FailingStore(await openStore(await buildStoreFromCsv(dir)));
  app = await buildApp({ store, clock: createClock('2026-03-15') });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

function request(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: (options.method ?? 'GET') as 'GET',
    url,
    headers: options.headers ?? {},
  });
}

function expectDetail(response: LightMyRequestResponse, status: number, detail: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ detail });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['x-request-id']).toBeTruthy();
}

describe('404 Not Found', () => {
  it.each([
    '/',
    '/v1',
    '/v1/users',
    '/v2/users',
    '/v1/nope',
    '/v1/user/x',
    '/v1/links/l1',
    '/v1/users/transactions',
    '/v2/users/links',
    '/v3/users/transactions',
    '/V1/USER',
  ])('%s -> 404 {"detail":"Not Found"}, with or without a token', async (url) => {
    expectDetail(await request(url), 404, 'Not Found');
    expectDetail(await request(url, { headers: AUTH }), 404, 'Not Found');
    expectDetail(await request(url, { method: 'POST' }), 404, 'Not Found');
  });

  it('routing comes before authentication: an unknown path with a bad token is 404', async () => {
    const response = await request('/v1/nope', { headers: { authorization: 'Bearer pat_x' } });
    expectDetail(response, 404, 'Not Found');
    expect(response.headers['www-authenticate']).toBeUndefined();
  });
});

describe('405 Method Not Allowed, with Allow', () => {
  const cases = ENDPOINTS.flatMap((url) =>
    ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].map((method) => [method, url] as const),
  );

  it.each(cases)('%s %s', async (method, url) => {
    for (const headers of [{}, AUTH]) {
      const response = await request(url, { method, headers });
      expectDetail(response, 405, 'Method Not Allowed');
      expect(response.headers.allow).toMatch(/(^|, )GET(,|$)/);
      expect(response.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('method checks come before validation: POST with bad parameters is 405', async () => {
    const response = await request('/v2/users/transactions?page=0', { method: 'POST' });
    expectDetail(response, 405, 'Method Not Allowed');
  });
});

describe('500 Internal Server Error never shows internals', () => {
  it.each(
    ENDPOINTS.map((url) =>
      url.includes('spending') ? `${url}?group_by=category&time_period=month` : url,
    ),
  )('%s', async (url) => {
    store.mode = 'crash';
    try {
      const response = await request(url, { headers: AUTH });
      expectDetail(response, 500, 'Internal Server Error');
      expect(response.body).not.toMatch(/secret|Binder|SELECT|stack|at /);
    } finally {
      store.mode = 'ok';
    }
  });
});

describe('503 when the store is unavailable', () => {
  it('answers {"detail":"Service Unavailable"} without the reason', async () => {
    store.mode = 'unavailable';
    try {
      const response = await request('/v2/users/transactions', { headers: AUTH });
      expectDetail(response, 503, 'Service Unavailable');
      expect(response.body).not.toContain('secret');
    } finally {
      store.mode = 'ok';
    }
  });
});

describe('x-request-id on every response', () => {
  it.each([
    ['200', '/v1/user', 'GET', AUTH, 200],
    ['200 list', '/v2/users/transactions?page=1', 'GET', AUTH, 200],
    ['401 not authenticated', '/v1/user', 'GET', {}, 401],
    ['401 invalid token', '/v1/user', 'GET', { authorization: 'Bearer pat_x' }, 401],
    ['404', '/v1/nope', 'GET', AUTH, 404],
    ['405', '/v1/user', 'DELETE', AUTH, 405],
    ['422', '/v2/users/transactions?page=0', 'GET', AUTH, 422],
    ['health', '/healthz', 'GET', {}, 200],
  ] as const)('%s', async (_name, url, method, headers, status) => {
    const response = await request(url, { method, headers });
    expect(response.statusCode).toBe(status);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('differs between requests', async () => {
    const [a, b] = await Promise.all([request('/v1/user'), request('/v1/user')]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('keeps a safe incoming id and replaces an unsafe one', async () => {
    const kept = await request('/v1/user', { headers: { ...AUTH, 'x-request-id': 'abc-123' } });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await request('/v1/user', {
      headers: { ...AUTH, 'x-request-id': 'evil\u0001value with spaces' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('on a 500 too', async () => {
    store.mode = 'crash';
    try {
      const response = await request('/v1/users/balances', { headers: AUTH });
      expect(response.statusCode).toBe(500);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      store.mode = 'ok';
    }
  });
});

describe('422 bodies', () => {
  it('are {"detail":[...]} as JSON with the request id', async () => {
    const response = await request('/v1/links?page=0&page_size=501', { headers: AUTH });
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(response.json()).toEqual({
      detail: [
        {
          type: 'greater_than_equal',
          loc: ['query', 'page'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
        {
          type: 'less_than_equal',
          loc: ['query', 'page_size'],
          msg: 'Input should be less than or equal to 500',
          input: '501',
          ctx: { le: 500 },
        },
      ],
    });
  });
});
