/**
 * The cash flow (docs/api.md resource table; docs/api.md "the cash-flow basis"): total income,
 * total expenses and the savings rate. Their basis is the scoped rows (user, window, not hidden,
 * not an internal transfer, not an investment account, link_id / account_ids) minus DEBIT
 * transfers to investment platforms. Categories, include_income and min_total_amount never
 * touch it.
 */
import { type Exact, type Figure, HUNDRED, ratio } from '../money.ts';

export interface CashFlowTotals {
  income: Exact;
  expenses: Exact;
}

export interface CashFlow {
  totalIncome: Exact;
  totalExpenses: Exact;
  /** (income - expenses) as a percentage of income; null unless income is positive. */
  savingsRate: Figure | null;
}

export function cashFlowOf({ income, expenses }: CashFlowTotals): CashFlow {
  return {
    totalIncome: income,
    totalExpenses: expenses,
    savingsRate:
      income.isPositive() && !income.isZero()
        ? ratio(income.minus(expenses).times(HUNDRED), income)
        : null,
  };
}
