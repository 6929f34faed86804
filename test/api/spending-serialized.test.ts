/**
 * Spending answers are cached as serialized bytes with request_id and created_at written in per
 * request: every body must be exactly what the route's schema serializer would write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeEncode } from 'zod/v4/core';
import { SpendingAnalysisEnrichedResponse } from '../../src/areas/spending/schemas.ts';
import { basicFixtureApp, type SpendingTestApp } from '../fixtures/spending/app.ts';

let t: SpendingTestApp;
beforeAll(async () => {
  t = await basicFixtureApp();
});
afterAll(() => t.close());

describe('cached spending answers', () => {
  it.each([
    'group_by=category&time_period=month&start_date=2026-01-01',
    'group_by=merchant&time_period=week&include_income=true',
    'group_by=time_period&time_period=month&secondary_group_by=category&start_date=2026-01-01',
    'group_by=time_period&time_period=day&start_date=2026-02-02&end_date=2026-02-02',
    'group_by=category&time_period=year&start_date=2020-01-01&end_date=2020-12-31',
  ])('%s: the serializer’s bytes, with this request’s id and time', async (query) => {
    for (const path of ['/v2/users/spending', '/v1/users/spending']) {
      const first = await t.get(query, { path });
      const second = await t.get(query, { path });
      for (const response of [first, second]) {
        expect(response.statusCode).toBe(200);
        const encoded = safeEncode(SpendingAnalysisEnrichedResponse, response.json());
        expect(encoded.error).toBeUndefined();
        expect(response.body).toBe(JSON.stringify(encoded.data));
        expect(response.json().request_id).toBe(response.headers['x-request-id']);
      }
      expect(second.json().request_id).not.toBe(first.json().request_id);
    }
  });
});
