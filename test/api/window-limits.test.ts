/**
 * An over-long window is refused with advice the endpoint can follow.
 * Balance history has `time_period`; income has none, so it must not suggest one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

describe('the over-long window message fits each endpoint', () => {
  let fx: FinanceFixture;
  beforeAll(async () => {
    fx = await openFinanceFixture();
  });
  afterAll(() => fx.close());

  async function get(url: string) {
    const response = await fx.app.inject({ url, headers: fx.u1 });
    return { status: response.statusCode, body: response.json() };
  }

  it('income (no time_period parameter): shorten the window, nothing else', async () => {
    const { status, body } = await get('/v1/users/income?start_date=1500-01-01');
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
    expect(JSON.stringify(body)).not.toContain('time_period');
  });

  it('balance history: shorten the window or use a longer time_period', async () => {
    const { status, body } = await get(
      '/v1/users/balance-history?start_date=1000-01-01&time_period=day',
    );
    expect(status).toBe(422);
    expect(body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['query', 'start_date'],
        msg: 'Value error, the window holds more than 3660 periods of one day; shorten it or use a longer time_period',
        input: '1000-01-01',
        ctx: { error: {} },
      },
    ]);
  });
});
