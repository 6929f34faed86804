import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarPeriods } from '../../src/areas/common/periods.ts';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

async function history(query: string) {
  const response = await fx.app.inject({
    url: `/v1/users/balance-history?${query}`,
    headers: fx.u1,
  });
  return { status: response.statusCode, body: response.json() };
}

describe('calendarPeriods', () => {
  it('lists every period meeting the window, clipped, none skipped', () => {
    expect(calendarPeriods({ start: '2026-01-15', end: '2026-03-10' }, 'month')).toEqual([
      { key: '2026-01-01', start: '2026-01-15', end: '2026-01-31' },
      { key: '2026-02-01', start: '2026-02-01', end: '2026-02-28' },
      { key: '2026-03-01', start: '2026-03-01', end: '2026-03-10' },
    ]);
    expect(
      calendarPeriods({ start: '2026-03-14', end: '2026-03-16' }, 'week').map((p) => [
        p.start,
        p.end,
      ]),
    ).toEqual([
      ['2026-03-14', '2026-03-15'],
      ['2026-03-16', '2026-03-16'],
    ]);
    expect(calendarPeriods({ start: '2026-03-01', end: '2026-03-01' }, 'year')).toHaveLength(1);
  });
});

describe('GET /v1/users/balance-history', () => {
  it('monthly: latest snapshot on or before each clipped period end (hand-computed)', async () => {
    const { status, body } = await history(
      'start_date=2026-01-01&end_date=2026-03-10&time_period=month',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      start_date: '2026-01-01',
      end_date: '2026-03-10',
      time_period: 'month',
    });
    expect(body.accounts).toHaveLength(6);
    const [january, february, march] = body.periods;
    expect(body.periods).toHaveLength(3);
    expect(january).toMatchObject({
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      // chk 1500.25 + sav 5000.00; card 300.50 + loan 10000.00 (2025-12-31); brokerage not yet.
      assets: '6500.25',
      liabilities: '10300.50',
      net_worth: '-3800.25',
    });
    expect(january.balances).toEqual([
      { account_id: 'a_brk', current: null, as_of: null },
      { account_id: 'a_card', current: '300.50', as_of: '2026-01-31' },
      { account_id: 'a_chk', current: '1500.25', as_of: '2026-01-31' },
      { account_id: 'a_loan', current: '10000.00', as_of: '2025-12-31' },
      { account_id: 'a_other', current: null, as_of: null },
      { account_id: 'a_sav', current: '5000.00', as_of: '2026-01-15' },
    ]);
    expect(february).toMatchObject({
      end_date: '2026-02-28',
      assets: '8800.10',
      liabilities: '10250.75',
      net_worth: '-1450.65',
    });
    expect(march).toMatchObject({
      start_date: '2026-03-01',
      end_date: '2026-03-10',
      net_worth: '-1450.65',
    });
  });

  it('defaults: month periods over the trailing year ending today', async () => {
    const { status, body } = await history('');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      start_date: '2025-03-16',
      end_date: '2026-03-15',
      time_period: 'month',
    });
    expect(body.periods).toHaveLength(13);
    // Before any account has a snapshot nothing is known: null, not "you had $0".
    expect(body.periods[0]).toMatchObject({
      start_date: '2025-03-16',
      end_date: '2025-03-31',
      assets: null,
      liabilities: null,
      net_worth: null,
    });
  });

  it('day periods: a snapshot counts from its own day on', async () => {
    const { body } = await history('start_date=2026-02-09&end_date=2026-02-10&time_period=day');
    const brokerage = body.periods.map(
      (p: { balances: { account_id: string; current: string | null }[] }) =>
        p.balances.find((b) => b.account_id === 'a_brk')?.current,
    );
    expect(brokerage).toEqual([null, '2500.00']);
  });

  it('a future end_date is capped at today', async () => {
    const { body } = await history('start_date=2026-03-01&end_date=2027-01-01&time_period=quarter');
    expect(body.end_date).toBe('2026-03-15');
    expect(body.periods).toEqual([
      expect.objectContaining({ start_date: '2026-03-01', end_date: '2026-03-15' }),
    ]);
  });

  it('start_date after end_date -> 422 value_error on start_date', async () => {
    const { status, body } = await history('start_date=2026-03-16');
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'start_date'],
          msg: 'Value error, start_date must be on or before end_date',
          input: '2026-03-16',
          ctx: { error: {} },
        },
      ],
    });
  });

  it('an unknown time_period -> 422 enum', async () => {
    const { status, body } = await history('time_period=decade');
    expect(status).toBe(422);
    expect(body.detail[0]).toMatchObject({
      loc: ['query', 'time_period'],
      type: 'enum',
      input: 'decade',
    });
  });

  it('at most 3660 periods: ten years of days pass, more -> 422 value_error on start_date', async () => {
    const ok = await history('start_date=2016-03-08&end_date=2026-03-15&time_period=day');
    expect(ok.status).toBe(200);
    expect(ok.body.periods).toHaveLength(3660);
    const over = await history('start_date=2016-03-07&end_date=2026-03-15&time_period=day');
    expect(over.status).toBe(422);
    const { status, body } = await history('start_date=1000-01-01&time_period=day');
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'start_date'],
          msg: 'Value error, the window holds more than 3660 periods of one day; shorten it or use a longer time_period',
          input: '1000-01-01',
          ctx: { error: {} },
        },
      ],
    });
    // The same window by year is fine.
    expect((await history('start_date=1000-01-01&time_period=year')).status).toBe(200);
  });

  it('field errors come first: the window checks wait for valid fields', async () => {
    const { status, body } = await history('start_date=2026-03-16&time_period=decade');
    expect(status).toBe(422);
    expect(body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([['query', 'time_period']]);
  });
});
