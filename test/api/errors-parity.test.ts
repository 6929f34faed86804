/**
 * The router answers as FastAPI's does (observed on FastAPI 0.142 + Starlette 1.7): HEAD,
 * trailing slashes, undecodable query values, early dates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

const PATHS = ['/v1/user', '/v2/users/transactions', '/v1/links', '/v1/users/balances'];

describe('FastAPI parity of the router', () => {
  it.each(PATHS)('405 on %s lists only GET in Allow (no implicit HEAD)', async (url) => {
    const response = await fx.app.inject({ method: 'POST', url });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET');
  });

  it.each(PATHS)('HEAD %s -> 405 with Allow: GET, token or not', async (url) => {
    for (const headers of [{}, fx.u1]) {
      const response = await fx.app.inject({ method: 'HEAD', url, headers });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET');
    }
  });

  it.each(['/v1/user%', '/v1/%zz'])(
    'a malformed percent-escape in the path (%s) -> 404',
    async (url) => {
      const response = await fx.app.inject({ url, headers: fx.u1 });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not Found' });
    },
  );

  it('a trailing slash redirects (307) to the path without it, query kept', async () => {
    const response = await fx.app.inject({ url: '/v1/links/?page=2', headers: fx.u1 });
    expect(response.statusCode).toBe(307);
    // Starlette names the absolute URL from the request's Host; this service gives the path
    // alone, so a forged Host is never reflected.
    expect(response.headers.location).toBe('/v1/links?page=2');
  });

  it('the redirect never reflects a forged Host or X-Forwarded-Host', async () => {
    const response = await fx.app.inject({
      url: '/v1/user/',
      headers: { ...fx.u1, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe('/v1/user');
  });

  it('invalid UTF-8 in a query value reads as U+FFFD (Python parse_qsl)', async () => {
    const response = await fx.app.inject({
      url: '/v2/users/transactions?page=%E9',
      headers: fx.u1,
    });
    expect(response.json().detail[0].input).toBe('\ufffd');
  });

  it('dates before year 100 keep their calendar (Date.UTC maps years 0-99 to 1900-1999)', async () => {
    const response = await fx.app.inject({
      url: '/v1/users/income?start_date=0050-01-01&end_date=0050-03-31',
      headers: fx.u1,
    });
    expect(response.json().monthly.map((m: { end_date: string }) => m.end_date)).toEqual([
      '0050-01-31',
      '0050-02-28',
      '0050-03-31',
    ]);
  });
});
