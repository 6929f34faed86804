/**
 * Every group_by x time_period, with and without secondary_group_by, for every demo user on the
 * demo store: each body is checked against openapi.yaml by the contract recorder (ajv), and
 * here against the grouping rules of docs/api.md.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { TIME_PERIODS } from '../../src/domain/calendar.ts';
import { GROUP_BYS, SECONDARY_GROUP_BYS } from '../../src/domain/spending/model.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { DEMO_TODAY, DEMO_USERS } from '../../tools/demo-data/demo.ts';
import { buildDemoStore, mintTestToken, openStore } from '../helpers/store.ts';

let app: FastifyInstance;
let store: ReadPort;
const tokens = new Map<string, string>();

beforeAll(async () => {
  const path = await buildDemoStore();
  for (const user of DEMO_USERS) tokens.set(user, await mintTestToken(path, user));
  store = await openStore(path);
  app = await buildApp({ store, clock: createClock(DEMO_TODAY) });
});

afterAll(async () => {
  await app?.close();
  await store?.close();
});

const LIST_OF = { category: 'by_category', merchant: 'by_merchant', time_period: 'by_time_period' };
const combinations = GROUP_BYS.flatMap((groupBy) =>
  TIME_PERIODS.flatMap((timePeriod) =>
    [undefined, ...SECONDARY_GROUP_BYS].map((secondary) => ({ groupBy, timePeriod, secondary })),
  ),
);

describe.each(DEMO_USERS)('spending of demo user %s', (user) => {
  it.each(combinations)(
    'group_by=$groupBy, time_period=$timePeriod, secondary=$secondary',
    async ({ groupBy, timePeriod, secondary }) => {
      const query = new URLSearchParams({ group_by: groupBy, time_period: timePeriod });
      if (secondary) query.set('secondary_group_by', secondary);
      const response = await app.inject({
        url: `/v2/users/spending?${query}`,
        headers: { authorization: `Bearer ${tokens.get(user)}` },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      const filled = LIST_OF[groupBy];
      for (const list of Object.values(LIST_OF)) {
        if (list === filled) expect(body.spending[list].length).toBeGreaterThan(0);
        else expect(body.spending[list]).toBeNull();
      }
      const doubleAggregation = groupBy === 'time_period' && secondary !== undefined;
      if (doubleAggregation) {
        expect(body.by_time_period).toHaveLength(body.spending.by_time_period.length);
        for (const period of body.by_time_period) {
          expect(period.breakdown.length).toBeLessThanOrEqual(11);
        }
      } else {
        expect(body.by_time_period ?? null).toBeNull();
      }
      if (groupBy === 'time_period') {
        for (const entry of body.spending.by_time_period)
          expect(entry.time_period).toBe(timePeriod);
      }
      expect(body.total_income).toMatch(/^-?\d+\.\d{2}$/);
    },
  );
});
