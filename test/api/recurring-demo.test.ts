/**
 * The committed demo set shows what GET /v2/users/recurring tells apart (fixtures/README.md):
 * the demo user (the one `npm start` mints a token for) has a stream of every cadence and every
 * status, a yearly one of two dates, a price rise and a subscription that moved account.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { CADENCES } from '../../src/domain/cadence.ts';
import { STREAM_STATUSES } from '../../src/domain/recurring/model.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { DEMO_TODAY, DEMO_USER } from '../../tools/demo-data/demo.ts';
import { buildDemoStore, mintTestToken, openStore } from '../helpers/store.ts';

interface Stream {
  merchant_name: string | null;
  cadence: string;
  status: string;
  transaction_count: number;
  account_ids: string[];
  amount_change: { previous_amount: string; changed_on: string } | null;
}

describe('the demo user’s recurring streams', () => {
  let app: FastifyInstance;
  let store: ReadPort;
  let streams: Stream[];
  const named = (name: string) => streams.find((stream) => stream.merchant_name === name);

  beforeAll(async () => {
    const databasePath = await buildDemoStore();
    const token = await mintTestToken(databasePath, DEMO_USER);
    store = await openStore(databasePath);
    app = await buildApp({ store, clock: createClock(DEMO_TODAY) });
    const response = await app.inject({
      url: '/v2/users/recurring',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    streams = [...body.outflow_streams, ...body.inflow_streams];
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it('has every cadence and every status', () => {
    expect(new Set(streams.map((stream) => stream.cadence))).toEqual(new Set(CADENCES));
    expect(new Set(streams.map((stream) => stream.status))).toEqual(new Set(STREAM_STATUSES));
  });

  it('has the bills of each kind the generator gives the first user', () => {
    expect(named('Seattle Public Utilities')).toMatchObject({ cadence: 'quarterly' });
    expect(named('Lemonade')).toMatchObject({
      cadence: 'semiannually',
      amount_change: { changed_on: '2026-09-12' },
    });
    expect(named('Amazon Prime')).toMatchObject({
      cadence: 'annually',
      status: 'mature',
      transaction_count: 2,
    });
    expect(named('Rover')).toMatchObject({ cadence: 'semimonthly', status: 'mature' });
    expect(named('Peloton')).toMatchObject({ status: 'tombstoned' });
    expect(named('Disney+')).toMatchObject({ status: 'early_detection', transaction_count: 2 });
    expect(named('YouTube Premium')?.amount_change).toMatchObject({ previous_amount: '13.99' });
    expect(named('Audible')?.account_ids).toHaveLength(2);
  });
});
