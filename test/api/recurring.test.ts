/**
 * GET /v2/users/recurring on the hand-made store of test/fixtures/recurring/streams.ts, on this
 * engine. Every expected value is worked out by hand from docs/api.md's rules; the comments say
 * how.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { RECURRING_TABLES, TODAY } from '../fixtures/recurring/streams.ts';
import {
  buildStoreFromCsv,
  DelegatingPort,
  makeTempDir,
  mintTestToken,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

/** The stream id by the documented spelling, computed here independently of the code. */
const id = (user: string, direction: string, key: string) =>
  `str_${createHash('sha256').update(`${user}\0${direction}\0${key}`).digest('hex').slice(0, 24)}`;

interface Stream {
  stream_id: string;
  merchant_name: string | null;
  description: string;
  category: string;
  subcategory: string | null;
  cadence: string;
  status: string;
  is_active: boolean;
  first_date: string;
  last_date: string;
  predicted_next_date: string | null;
  transaction_count: number;
  average_amount: string;
  last_amount: string;
  annual_amount: string;
  amount_change: { previous_amount: string; changed_on: string } | null;
  account_ids: string[];
  transaction_ids: string[];
}
interface Body {
  as_of: string;
  currency: string | null;
  outflow_streams: Stream[];
  inflow_streams: Stream[];
}

/** Counts the store reads of each kind. */
class CountingStore extends DelegatingPort {
  readonly reads: string[] = [];
  protected override read<T>(method: keyof ReadPort, run: () => Promise<T>): Promise<T> {
    this.reads.push(method);
    return run();
  }
}

let app: FastifyInstance;
let store: CountingStore;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const dir = makeTempDir('recurring');
  await writeCsvFixture(dir, RECURRING_TABLES);
  const databasePath = await buildStoreFromCsv(dir);
  for (const user of ['u1', 'zz_u2', 'u3']) tokens[user] = await mintTestToken(databasePath, user);
  store = new CountingStore(await openStore(databasePath));
  app = await buildApp({ store, clock: createClock(TODAY) });
});
afterAll(async () => {
  await app?.close();
  await store?.close();
});

async function get(query = '', user = 'u1', authorization = `Bearer ${tokens[user]}`) {
  return app.inject({
    url: `/v2/users/recurring${query ? `?${query}` : ''}`,
    headers: { authorization },
  });
}
async function body(query = '', user = 'u1'): Promise<Body> {
  const response = await get(query, user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The fields of a stream that tell its rules apart, for the list-wide comparisons. */
const summary = (s: Stream) =>
  [
    s.merchant_name ?? s.description,
    s.cadence,
    s.status,
    s.first_date,
    s.last_date,
    s.predicted_next_date,
    s.transaction_count,
    s.average_amount,
    s.last_amount,
    s.annual_amount,
  ].join(' ');

describe('GET /v2/users/recurring: the streams of each cadence and status', () => {
  let answer: Body;
  beforeAll(async () => {
    answer = await body();
  });

  it('answers as of today in the user’s currency', () => {
    expect(answer.as_of).toBe(TODAY);
    expect(answer.currency).toBe('USD');
  });

  it('lists the outflows by annual amount, each with its cadence, status, dates and amounts', () => {
    expect(answer.outflow_streams.map(summary)).toEqual([
      // 1st and 15th, or the Friday before: 8 x 300.00; 24 a year. Next: Dec 1 (a Tuesday).
      'Little Steps semimonthly mature 2026-07-31 2026-11-13 2026-12-01 8 300.00 300.00 7200.00',
      // Every 6 months on the 5th; 1842.00 / 3 = 614.00, x 2 = 1228.00. Dec 5 is a Saturday.
      'SafeDrive Insurance semiannually mature 2025-06-05 2026-06-05 2026-12-04 3 614.00 642.00 1228.00',
      // Wednesdays, 10-21 skipped, 11-05 a day late, two charges on 11-11: 8 x 10.00, x 52.
      'FitClub weekly mature 2026-09-30 2026-11-18 2026-11-25 8 10.00 10.00 520.00',
      // The 3rd, last on 04-03: next May 3 (a Sunday) paid Friday May 1, plus 15 days of grace
      // is 05-16, before today.
      'IronWorks Gym monthly tombstoned 2026-01-03 2026-04-03  4 40.00 40.00 480.00',
      // The 20th of Nov, Feb, May, Aug: 354.75 / 4 = 88.6875 -> 88.69, x 4 = 354.75.
      'City Water quarterly mature 2025-11-20 2026-08-20 2026-11-20 4 88.69 91.25 354.75',
      // 4 x 25.00 + 5.00 = 105.00 / 5 = 21.00, x 12 = 252.00; the last is park_4b, 5.00.
      'CITY PARKING*0017 monthly mature 2026-08-01 2026-11-01 2026-12-01 5 21.00 5.00 252.00',
      // 4 x 15.49 + 3 x 17.99 = 115.93 / 7 = 16.561.. -> 16.56; x 12 / 7 = 198.737.. -> 198.74.
      'StreamFlix monthly mature 2026-05-10 2026-11-10 2026-12-10 7 16.56 17.99 198.74',
      // Two dates a year apart: mature. Next: 2027-03-14, a Sunday, paid Friday the 12th.
      'ShopPrime annually mature 2025-03-14 2026-03-14 2027-03-12 2 129.00 139.00 129.00',
      // The 25th; the charge of 11-25 is after today. Next: Nov 25 (a Wednesday).
      'TuneBox monthly mature 2026-06-25 2026-10-25 2026-11-25 5 9.99 9.99 119.88',
      // Two dates: early. Next: Dec 12, a Saturday, paid Friday the 11th.
      'Notely monthly early_detection 2026-10-12 2026-11-12 2026-12-11 2 7.99 7.99 95.88',
    ]);
  });

  it('lists the inflows: pay, and withdrawals from an investment platform', () => {
    expect(answer.inflow_streams.map(summary)).toEqual([
      // 12100.00 / 6 = 2016.666.. -> 2016.67; x 26 / 6 = 52433.333.. -> 52433.33.
      'Acme Corp biweekly mature 2026-09-04 2026-11-13 2026-11-27 6 2016.67 2000.00 52433.33',
      // The 28th: Nov 28 is a Saturday, paid Friday the 27th.
      'Robinhood monthly mature 2026-08-28 2026-10-28 2026-11-27 3 50.00 50.00 600.00',
    ]);
  });

  it('reports a price rise with the amount before it and the date it took hold', () => {
    const flix = answer.outflow_streams.find((s) => s.merchant_name === 'StreamFlix');
    expect(flix).toEqual({
      stream_id: id('u1', 'DEBIT', 'streamflix'),
      merchant_name: 'StreamFlix',
      description: 'STREAMFLIX.COM',
      category: 'Entertainment',
      subcategory: 'TV and Movies',
      cadence: 'monthly',
      status: 'mature',
      is_active: true,
      first_date: '2026-05-10',
      last_date: '2026-11-10',
      predicted_next_date: '2026-12-10',
      transaction_count: 7,
      average_amount: '16.56',
      last_amount: '17.99',
      annual_amount: '198.74',
      // 17.99 since 09-10; 15.49 before: 2.50 x 20 = 50 > 15.49.
      amount_change: { previous_amount: '15.49', changed_on: '2026-09-10' },
      account_ids: ['a_chk'],
      transaction_ids: ['flix_1', 'flix_2', 'flix_3', 'flix_4', 'flix_5', 'flix_6', 'flix_7'],
    });
  });

  it('keeps no amount change of 5% or less, and one of more', () => {
    const of = (name: string) =>
      [...answer.outflow_streams, ...answer.inflow_streams].find((s) => s.merchant_name === name)
        ?.amount_change;
    // 2000.00 after 2100.00: 100 x 20 = 2000, not more than 2100.
    expect(of('Acme Corp')).toBeNull();
    // 91.25 after 88.50: 2.75 x 20 = 55, not more than 88.50.
    expect(of('City Water')).toBeNull();
    // 642.00 after 600.00: 42 x 20 = 840 > 600.
    expect(of('SafeDrive Insurance')).toEqual({
      previous_amount: '600.00',
      changed_on: '2026-06-05',
    });
    // 139.00 after 119.00.
    expect(of('ShopPrime')).toEqual({ previous_amount: '119.00', changed_on: '2026-03-14' });
  });

  it('keeps one stream across a replaced card, and leaves out a future-dated charge', () => {
    const tune = answer.outflow_streams.find((s) => s.merchant_name === 'TuneBox');
    expect(tune?.stream_id).toBe(id('u1', 'DEBIT', 'tunebox'));
    expect(tune?.account_ids).toEqual(['a_card_new', 'a_card_old']);
    // TUNEBOX and TuneBox are one key; tune_6 (11-25) is after today.
    expect(tune?.transaction_ids).toEqual(['tune_1', 'tune_2', 'tune_3', 'tune_4', 'tune_5']);
  });

  it('keys a stream without a merchant name by its description, the last transaction’s fields shown', () => {
    const parking = answer.outflow_streams.find((s) => s.description.startsWith('CITY PARKING'));
    expect(parking).toMatchObject({
      stream_id: id('u1', 'DEBIT', 'city parking'),
      merchant_name: null,
      description: 'CITY PARKING*0017',
      category: 'Transportation',
      subcategory: 'Parking',
      // By date, then id; on 11-01 park_4b (5.00) comes after park_4a (25.00).
      transaction_ids: ['park_1', 'park_2', 'park_3', 'park_4a', 'park_4b'],
      last_amount: '5.00',
      amount_change: { previous_amount: '25.00', changed_on: '2026-11-01' },
    });
  });

  it('tombstones without a next date; counts a date with two transactions once', () => {
    const gym = answer.outflow_streams.find((s) => s.merchant_name === 'IronWorks Gym');
    expect(gym).toMatchObject({ is_active: false, predicted_next_date: null });
    const fit = answer.outflow_streams.find((s) => s.merchant_name === 'FitClub');
    expect(fit?.transaction_ids).toEqual([
      'fit_1',
      'fit_2',
      'fit_3',
      'fit_4',
      'fit_5',
      'fit_6a',
      'fit_6b',
      'fit_7',
    ]);
    expect(answer.outflow_streams.every((s) => s.is_active === (s.status !== 'tombstoned'))).toBe(
      true,
    );
  });

  it('never makes a stream of hidden rows, internal transfers, investment accounts, transfers to a platform or irregular dates', () => {
    const ids = [...answer.outflow_streams, ...answer.inflow_streams].flatMap(
      (s) => s.transaction_ids,
    );
    for (const prefix of ['secret_', 'move_', 'fee_', 'div_', 'hood_out_', 'cafe_', 'zz_']) {
      expect(
        ids.filter((txn) => txn.startsWith(prefix)),
        prefix,
      ).toEqual([]);
    }
    expect(answer.outflow_streams.map((s) => s.stream_id)).not.toContain(
      id('u1', 'DEBIT', 'robinhood'),
    );
  });
});

describe('GET /v2/users/recurring: scope, users and caching', () => {
  it('scopes by account: the old card alone has a stream that stopped', async () => {
    const answer = await body('account_ids=a_card_old');
    expect(answer.inflow_streams).toEqual([]);
    // 06-25, 07-25, 08-25: next Sep 25, plus 15 days is 10-10, before today.
    expect(answer.outflow_streams.map(summary)).toEqual([
      'TuneBox monthly tombstoned 2026-06-25 2026-08-25  3 9.99 9.99 119.88',
    ]);
    expect(answer.outflow_streams[0]?.stream_id).toBe(id('u1', 'DEBIT', 'tunebox'));
    expect(answer.outflow_streams[0]?.account_ids).toEqual(['a_card_old']);
  });

  it('scopes by link; account_ids comma-separated or repeated', async () => {
    const card = await body('link_id=l_card');
    expect(card.outflow_streams.map((s) => s.merchant_name)).toEqual(['TuneBox']);
    expect(card.outflow_streams[0]?.transaction_count).toBe(5);
    for (const query of [
      'account_ids=a_card_old,a_card_new',
      'account_ids=a_card_old&account_ids=%20a_card_new%20,',
    ]) {
      expect(await body(query), query).toEqual(card);
    }
  });

  it('treats an empty or blank list and an empty link as no filter', async () => {
    const all = await body();
    for (const query of ['account_ids=', 'account_ids=,', 'account_ids=%20,%20', 'link_id=']) {
      expect(await body(query), query).toEqual(all);
    }
  });

  it('matches nothing for an account or link that is not the user’s', async () => {
    // A NUL is in no stored id (PostgreSQL's text cannot hold one): every engine answers alike.
    for (const query of [
      'account_ids=zz_a_chk',
      'account_ids=nope',
      'link_id=zz_l_bank',
      'account_ids=%00',
      'link_id=l_card%00',
    ]) {
      const answer = await body(query);
      expect([answer.outflow_streams, answer.inflow_streams], query).toEqual([[], []]);
    }
    expect(await body('account_ids=a_card_old,%00')).toEqual(await body('account_ids=a_card_old'));
  });

  it('answers each user their own streams, with ids of their own', async () => {
    const other = await body('', 'zz_u2');
    expect(other.outflow_streams.map((s) => [s.stream_id, s.transaction_ids])).toEqual([
      [id('zz_u2', 'DEBIT', 'streamflix'), ['zz_flix_1', 'zz_flix_2', 'zz_flix_3']],
    ]);
    const empty = await body('', 'u3');
    expect(empty).toEqual({
      as_of: TODAY,
      currency: null,
      outflow_streams: [],
      inflow_streams: [],
    });
  });

  it('answers again from the cache, and 304 to a matching If-None-Match, without reading', async () => {
    const query = 'account_ids=a_chk';
    const first = await get(query);
    expect(first.statusCode).toBe(200);
    const before = store.reads.length;
    const again = await get(query);
    expect(again.body).toBe(first.body);
    const revalidated = await app.inject({
      url: `/v2/users/recurring?${query}`,
      headers: {
        authorization: `Bearer ${tokens.u1}`,
        'if-none-match': String(first.headers.etag),
      },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(store.reads.slice(before).filter((read) => read.startsWith('recurring'))).toEqual([]);
  });

  it('reads the raw keys’ days, then only the rows of the keys that form streams', async () => {
    const before = store.reads.length;
    await body('account_ids=a_sav');
    await body('account_ids=a_brk,a_sav');
    // Nothing counted on savings (internal) or the brokerage (investment): no second read.
    expect(store.reads.slice(before).filter((read) => read.startsWith('recurring'))).toEqual([
      'recurringKeyDays',
      'recurringKeyDays',
    ]);
  });
});

describe('GET /v2/users/recurring: authentication and parameters', () => {
  it('answers 401 without a token, or with one that is not valid', async () => {
    const none = await app.inject({ url: '/v2/users/recurring' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Not authenticated' });
    const unknown = await get('', 'u1', `Bearer ${generateToken()}`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ detail: 'Invalid authentication credentials' });
    expect(unknown.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    // Authentication before anything else, whatever the query.
    expect((await app.inject({ url: '/v2/users/recurring?account_ids=%ff' })).statusCode).toBe(401);
  });

  it('refuses no value of its parameters: any text is an account id or a link id (never a 422)', async () => {
    for (const query of [
      'account_ids=%ff%fe',
      'link_id=%20',
      `account_ids=${'x'.repeat(500)}`,
      'link_id=a&link_id=l_card',
      'start_date=not-a-date&unknown=1',
    ]) {
      expect((await get(query)).statusCode, query).toBe(200);
    }
    // A repeated link_id keeps its last value, as FastAPI does.
    expect(await body('link_id=nope&link_id=l_card')).toEqual(await body('link_id=l_card'));
  });
});
