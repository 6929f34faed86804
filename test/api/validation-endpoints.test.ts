/**
 * Every non-spending endpoint answers as a FastAPI app declaring the same parameters and
 * security would: status, body and WWW-Authenticate of each case in
 * test/golden/validation/endpoints.json, recorded from FastAPI itself by
 * test/golden/generators/generate_endpoint_golden.py (authentication headers, pagination bounds,
 * dates, enums, repeated parameters, the window check).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

interface GoldenCase {
  url: string;
  headers: Record<string, string>;
  status: number;
  body?: unknown;
  www_authenticate?: string | null;
}

const GOLDEN: GoldenCase[] = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../golden/validation/endpoints.json'), 'utf8'),
);

let fx: FinanceFixture;
let token: string;
beforeAll(async () => {
  fx = await openFinanceFixture();
  token = fx.u1.authorization.slice('Bearer '.length);
});
afterAll(() => fx.close());

const withToken = (text: string) => text.replaceAll('{T}', token);

describe('FastAPI golden responses of the non-spending endpoints', () => {
  it('covers every endpoint and outcome', () => {
    const statuses = new Set(GOLDEN.map((c) => c.status));
    expect([...statuses].sort()).toEqual([200, 401, 422]);
    expect(GOLDEN.length).toBeGreaterThan(500);
  });

  it.each(GOLDEN.map((c) => [`${JSON.stringify(c.headers)} ${c.url}`, c] as const))(
    '%s',
    async (_name, golden) => {
      const headers = Object.fromEntries(
        Object.entries(golden.headers).map(([name, value]) => [name, withToken(value)]),
      );
      const response = await fx.app.inject({ method: 'GET', url: withToken(golden.url), headers });
      expect(response.statusCode, response.body).toBe(golden.status);
      if (golden.status === 200) return;
      expect(response.json()).toEqual(golden.body);
      expect(response.headers['www-authenticate'] ?? null).toBe(golden.www_authenticate ?? null);
    },
  );
});
