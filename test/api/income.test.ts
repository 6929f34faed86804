import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { addDays } from '../../src/domain/calendar.ts';
import { inferPayFrequency, nextExpectedPayDate } from '../../src/domain/pay-frequency.ts';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';
import {
  buildStoreFromCsv,
  makeTempDir,
  mintTestToken,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

/** Dates `offsets[i]` days off the i-th day of a `period`-day grid from `first`. */
const offGrid = (first: string, period: number, offsets: readonly number[]) =>
  offsets.map((offset, i) => addDays(first, period * i + offset));

/**
 * Payrolls that skip a date or move one for a weekend or holiday, each with its frequency and
 * next expected pay date (docs/api.md, "Pay frequency"). 2026's 15ths of February and March are
 * Sundays, its 31st of January and 28th of February Saturdays.
 */
const PAYROLLS: Array<[name: string, dates: string[], frequency: string, next: string | null]> = [
  [
    'biweekly, 02-25 skipped',
    [
      '2026-01-14',
      '2026-01-28',
      '2026-02-11',
      '2026-03-11',
      '2026-03-25',
      '2026-04-08',
      '2026-04-22',
    ],
    'biweekly',
    '2026-05-06',
  ],
  [
    'biweekly, 0 +2 0 -2 days off the grid',
    offGrid('2025-11-06', 14, [0, 2, 0, -2, 0, 2, 0, -2, 0]),
    'biweekly',
    '2026-03-12',
  ],
  [
    'biweekly, the last date paid two days early',
    offGrid('2026-01-02', 14, [0, 0, 0, 0, -2]),
    'biweekly',
    '2026-03-13',
  ],
  [
    'biweekly, a short run with a skip',
    ['2026-01-02', '2026-01-16', '2026-02-13', '2026-02-27'],
    'biweekly',
    '2026-03-13',
  ],
  [
    'weekly Fridays, 01-23 skipped, 02-06 paid on Thursday',
    [
      '2026-01-02',
      '2026-01-09',
      '2026-01-16',
      '2026-01-30',
      '2026-02-05',
      '2026-02-13',
      '2026-02-20',
    ],
    'weekly',
    '2026-02-27',
  ],
  [
    'semimonthly 15th and last, Fridays before weekends, 04-30 skipped',
    [
      ...['2026-01-15', '2026-01-30', '2026-02-13', '2026-02-27', '2026-03-13', '2026-03-31'],
      ...['2026-04-15', '2026-05-15', '2026-05-29', '2026-06-15'],
    ],
    'semimonthly',
    '2026-06-30',
  ],
  [
    'semimonthly 1st and 15th, three months',
    ['2026-01-01', '2026-01-15', '2026-01-30', '2026-02-13', '2026-03-02', '2026-03-13'],
    'semimonthly',
    '2026-04-01',
  ],
  [
    'monthly on the 15th, March skipped, weekends paid the Friday before',
    ['2026-01-15', '2026-02-13', '2026-04-15', '2026-05-15', '2026-06-15', '2026-07-15'],
    'monthly',
    '2026-08-14',
  ],
  [
    'monthly on the last day',
    ['2026-01-30', '2026-02-27', '2026-03-31', '2026-04-30'],
    'monthly',
    '2026-05-29',
  ],
  // Gaps 9 and 10: the median of an even count is the mean of the middle two, 9.5, in no band.
  ['no band for a median of 9.5', ['2026-01-01', '2026-01-10', '2026-01-20'], 'irregular', null],
  // Two of four gaps do not fit the cadence (less than 75%).
  [
    'too many gaps off the cadence',
    ['2026-01-02', '2026-01-16', '2026-01-30', '2026-02-20', '2026-03-13'],
    'irregular',
    null,
  ],
];

describe('inferPayFrequency', () => {
  it.each([
    [['2026-01-02', '2026-01-09', '2026-01-16', '2026-01-22'], 'weekly'],
    [['2026-01-02', '2026-01-16', '2026-01-30', '2026-02-13'], 'biweekly'],
    // A holiday moves one payday a day early: still on the 14-day grid.
    [['2026-01-02', '2026-01-16', '2026-01-29', '2026-02-13', '2026-02-27'], 'biweekly'],
    [
      ['2026-01-15', '2026-01-30', '2026-02-13', '2026-02-27', '2026-03-13', '2026-03-31'],
      'semimonthly',
    ],
    [['2026-01-01', '2026-01-15', '2026-02-01', '2026-02-15', '2026-03-01'], 'semimonthly'],
    [['2026-01-31', '2026-02-27', '2026-03-31'], 'monthly'],
    [['2026-01-05', '2026-02-05'], 'irregular'],
    [['2026-01-05', '2026-01-08', '2026-03-20', '2026-03-21'], 'irregular'],
  ])('%j -> %s', (dates, expected) => {
    expect(inferPayFrequency(dates)).toBe(expected);
  });

  it.each(PAYROLLS)('%s: %j -> %s, next %s', (_, dates, frequency, next) => {
    expect(inferPayFrequency(dates)).toBe(frequency);
    expect(nextExpectedPayDate(dates, inferPayFrequency(dates))).toBe(next);
  });

  it('next expected pay date follows the cadence; a weekend day is paid the Friday before', () => {
    expect(nextExpectedPayDate(['2026-02-27', '2026-03-13'], 'biweekly')).toBe('2026-03-27');
    expect(nextExpectedPayDate(['2026-03-13'], 'weekly')).toBe('2026-03-20');
    // 2026-02-28 is a Saturday.
    expect(nextExpectedPayDate(['2026-01-31'], 'monthly')).toBe('2026-02-27');
    expect(nextExpectedPayDate(['2026-01-31', '2026-02-13'], 'semimonthly')).toBe('2026-02-27');
    expect(nextExpectedPayDate(['2026-02-13', '2026-02-27'], 'semimonthly')).toBe('2026-03-13');
    expect(nextExpectedPayDate(['2026-02-13', '2026-02-27'], 'irregular')).toBeNull();
  });
});

describe('GET /v1/users/income: pay dates with skips and shifts, on this engine', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let headers: { authorization: string };
  beforeAll(async () => {
    const user = 'payroll';
    const dir = makeTempDir('payrolls');
    await writeCsvFixture(dir, {
      users: [{ id: user, name: 'P', email: 'p@example.com', created_at: '2024-01-01 00:00:00' }],
      links: [
        {
          id: 'gusto',
          user_id: user,
          type: 'payroll',
          name: 'Gusto',
          status: 'active',
          created_at: '2024-01-01 00:00:00',
        },
      ],
      accounts: [{ id: 'chk', user_id: user, link_id: 'gusto', name: 'chk', type: 'depository' }],
      transactions: [
        {
          id: 't1',
          user_id: user,
          account_id: 'chk',
          transacted_at: '2026-01-02',
          amount: '1.00',
          direction: 'CREDIT',
          description: 'PAY',
          category: 'Income',
        },
      ],
      pay_statements: PAYROLLS.flatMap(([name, dates], k) =>
        dates.map((date, i) => ({
          id: `p${k}_${i}`,
          user_id: user,
          link_id: 'gusto',
          employer: `${String(k).padStart(2, '0')} ${name}`,
          pay_date: date,
          gross_pay: '100.00',
          net_pay: '80.00',
        })),
      ),
    });
    const databasePath = await buildStoreFromCsv(dir);
    headers = { authorization: `Bearer ${await mintTestToken(databasePath, user)}` };
    app = await buildApp({
      store: await openStore(databasePath),
      clock: createClock('2026-12-31'),
    });
  });
  afterAll(() => app.close());

  it('every payroll has its frequency and next expected pay date', async () => {
    const response = await app.inject({
      url: '/v1/users/income?start_date=2025-01-01',
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const payroll = response.json().payroll as Array<Record<string, unknown>>;
    expect(
      payroll.map(({ employer, pay_frequency, next_expected_pay_date, last_pay_date }) => ({
        employer,
        pay_frequency,
        next_expected_pay_date,
        last_pay_date,
      })),
    ).toEqual(
      PAYROLLS.map(([name, dates, frequency, next], k) => ({
        employer: `${String(k).padStart(2, '0')} ${name}`,
        pay_frequency: frequency,
        next_expected_pay_date: next,
        last_pay_date: dates.at(-1),
      })),
    );
  });
});

describe('GET /v1/users/income', () => {
  let fx: FinanceFixture;
  beforeAll(async () => {
    fx = await openFinanceFixture();
  });
  afterAll(() => fx.close());

  async function income(query: string) {
    const response = await fx.app.inject({ url: `/v1/users/income?${query}`, headers: fx.u1 });
    return { status: response.statusCode, body: response.json() };
  }

  it('per employer and monthly totals (hand-computed)', async () => {
    const { status, body } = await income('start_date=2026-01-01');
    expect(status).toBe(200);
    expect(body.start_date).toBe('2026-01-01');
    expect(body.end_date).toBe('2026-03-15');
    expect(body.payroll).toEqual([
      {
        link_id: 'l_pay',
        provider: 'Gusto',
        employer: 'Acme Corp',
        pay_frequency: 'biweekly',
        last_pay_date: '2026-03-13',
        next_expected_pay_date: '2026-03-27',
        gross_total: '18000.00',
        net_total: '13503.00',
        statement_count: 6,
      },
      {
        link_id: 'l_pay',
        provider: 'Gusto',
        employer: 'Side Gig LLC',
        pay_frequency: 'monthly',
        last_pay_date: '2026-03-05',
        next_expected_pay_date: '2026-04-03', // 04-05 is a Sunday
        gross_total: '1500.00',
        net_total: '1200.00',
        statement_count: 3,
      },
    ]);
    // Hidden (c03), internal transfer (c04), investment account (c05) and future (c08) left out.
    expect(body.monthly).toEqual([
      { start_date: '2026-01-01', end_date: '2026-01-31', total: '4501.00', transaction_count: 2 },
      { start_date: '2026-02-01', end_date: '2026-02-28', total: '2270.49', transaction_count: 2 },
      { start_date: '2026-03-01', end_date: '2026-03-15', total: '0.00', transaction_count: 0 },
    ]);
    expect(body.total_income).toBe('6771.49');
  });

  it('a window narrows statements, frequency and totals to it', async () => {
    const { body } = await income('start_date=2026-01-20&end_date=2026-02-14');
    expect(body.payroll).toEqual([
      expect.objectContaining({
        employer: 'Acme Corp',
        statement_count: 2,
        gross_total: '6000.00',
        last_pay_date: '2026-02-13',
        pay_frequency: 'irregular',
        next_expected_pay_date: null,
      }),
      expect.objectContaining({
        employer: 'Side Gig LLC',
        statement_count: 1,
        net_total: '400.00',
      }),
    ]);
    expect(body.monthly).toEqual([
      { start_date: '2026-01-20', end_date: '2026-01-31', total: '0.00', transaction_count: 0 },
      { start_date: '2026-02-01', end_date: '2026-02-14', total: '2270.49', transaction_count: 2 },
    ]);
  });

  it('start_date after end_date -> 422 value_error', async () => {
    const { status, body } = await income('start_date=2026-02-01&end_date=2026-01-31');
    expect(status).toBe(422);
    expect(body.detail[0]).toMatchObject({
      type: 'value_error',
      loc: ['query', 'start_date'],
      input: '2026-02-01',
    });
  });

  it('more than 3660 months -> 422 value_error on start_date', async () => {
    const { status, body } = await income('start_date=1500-01-01');
    expect(status).toBe(422);
    expect(body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['query', 'start_date'],
        msg: 'Value error, the window holds more than 3660 months; shorten it',
        input: '1500-01-01',
        ctx: { error: {} },
      },
    ]);
    expect((await income('start_date=1800-01-01')).status).toBe(200);
  });
});
