import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

describe('GET /v1/users/liabilities', () => {
  it('credit and loan accounts with their details and latest balance', async () => {
    const response = await fx.app.inject({ url: '/v1/users/liabilities', headers: fx.u1 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      liabilities: [
        {
          account_id: 'a_card',
          account_name: 'Rewards card',
          account_type: 'credit',
          account_subtype: 'credit card',
          kind: 'credit_card',
          apr: '24.99',
          minimum_payment: '35.00',
          next_payment_due_date: '2026-03-25',
          last_payment_amount: '300.50',
          last_payment_date: '2026-01-25',
          original_principal: null,
          current_balance: '450.75',
          as_of: '2026-02-27',
        },
        {
          account_id: 'a_loan',
          account_name: 'Auto loan',
          account_type: 'loan',
          account_subtype: 'auto',
          kind: 'auto_loan',
          apr: '6.875',
          minimum_payment: '412.30',
          next_payment_due_date: '2026-04-01',
          last_payment_amount: '412.30',
          last_payment_date: '2026-03-01',
          original_principal: '18000.00',
          current_balance: '9800.00',
          as_of: '2026-02-01',
        },
      ],
    });
  });
});
