/** A spending query for the tests: a user's year by category and month, counted spending only. */
import type { SpendingQuery } from '../../src/domain/spending/model.ts';

export function spendingQuery(overrides: Partial<SpendingQuery> = {}): SpendingQuery {
  return {
    userId: 'u1',
    window: { start: '2026-01-01', end: '2026-12-31' },
    groupBy: 'category',
    timePeriod: 'month',
    secondaryGroupBy: null,
    linkId: null,
    accountIds: [],
    categories: [],
    includeIncome: false,
    minTotalAmount: '0',
    ...overrides,
  };
}
