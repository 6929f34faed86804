import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

async function get(url: string) {
  const response = await fx.app.inject({ url, headers: fx.u1 });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('GET /v1/links', () => {
  it('lists every link of the user, oldest first then id, with its account ids', async () => {
    const body = await get('/v1/links');
    expect(body).toMatchObject({ count: 4, next: null, previous: null });
    expect(body.links).toEqual([
      {
        id: 'l_bank',
        type: 'institution',
        name: 'First Bank',
        status: 'active',
        created_at: '2024-01-01T09:00:00Z',
        last_synced_at: '2026-03-14T06:30:00Z',
        account_ids: ['a_chk', 'a_loan', 'a_other', 'a_sav'],
      },
      {
        id: 'l_card',
        type: 'institution',
        name: 'Card Co',
        status: 'error',
        created_at: '2024-02-01T09:00:00Z',
        last_synced_at: null,
        account_ids: ['a_card'],
      },
      {
        id: 'l_broker',
        type: 'institution',
        name: 'Broker',
        status: 'disconnected',
        created_at: '2024-03-01T10:00:00Z',
        last_synced_at: null,
        account_ids: ['a_brk'],
      },
      {
        id: 'l_pay',
        type: 'payroll',
        name: 'Gusto',
        status: 'active',
        created_at: '2024-03-01T10:00:00Z',
        last_synced_at: '2026-03-13T12:00:00.250000Z',
        account_ids: [],
      },
    ]);
  });

  it('paginates with page and page_size; following next rebuilds the list', async () => {
    const all = await get('/v1/links');
    const first = await get('/v1/links?page_size=10');
    expect(first).toEqual({ ...all, next: null, previous: null });
    const past = await get('/v1/links?page=2&page_size=10');
    expect(past).toMatchObject({
      count: 4,
      links: [],
      next: null,
      previous: '/v1/links?page=1&page_size=10',
    });
  });

  it('page_size out of range -> 422', async () => {
    const response = await fx.app.inject({ url: '/v1/links?page_size=501', headers: fx.u1 });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({
      loc: ['query', 'page_size'],
      type: 'less_than_equal',
    });
  });
});
