import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inferPayFrequency, nextExpectedPayDate } from '../../src/domain/pay-frequency.ts';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

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

  it('next expected pay date follows the cadence', () => {
    expect(nextExpectedPayDate(['2026-02-27', '2026-03-13'], 'biweekly')).toBe('2026-03-27');
    expect(nextExpectedPayDate(['2026-03-13'], 'weekly')).toBe('2026-03-20');
    expect(nextExpectedPayDate(['2026-01-31'], 'monthly')).toBe('2026-02-28');
    expect(nextExpectedPayDate(['2026-01-31', '2026-02-13'], 'semimonthly')).toBe('2026-02-28');
    expect(nextExpectedPayDate(['2026-02-13', '2026-02-27'], 'semimonthly')).toBe('2026-03-13');
    expect(nextExpectedPayDate(['2026-02-13', '2026-02-27'], 'irregular')).toBeNull();
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
        next_expected_pay_date: '2026-04-05',
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
