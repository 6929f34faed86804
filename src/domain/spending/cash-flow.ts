/**
 * The cash-flow fields (docs/api.md resource table; docs/api.md "the cash-flow basis"):
 * total_income, total_expenses and savings_rate. Their basis is the scoped rows (user, window,
 * not hidden, not an internal transfer, not an investment account, link_id / account_ids) minus
 * DEBIT transfers to investment platforms. Categories, include_income and min_total_amount
 * never touch it.
 */
import { type Exact, exact, HUNDRED, money, rate, ratio, ZERO } from '../money.ts';

export interface CashFlowTotals {
  income: Exact;
  expenses: Exact;
}

export interface CashFlowFields {
  total_income: string | null;
  total_expenses: string | null;
  savings_rate: string | null;
}

export const NO_CASH_FLOW: CashFlowFields = {
  total_income: null,
  total_expenses: null,
  savings_rate: null,
};

export function cashFlowTotals(
  row: { income?: unknown; expenses?: unknown } | undefined,
): CashFlowTotals {
  return {
    income: row?.income == null ? ZERO : exact(row.income),
    expenses: row?.expenses == null ? ZERO : exact(row.expenses),
  };
}

/** Savings rate: (income - expenses) as a percentage of income; null unless income is positive. */
export function cashFlowFields({ income, expenses }: CashFlowTotals): CashFlowFields {
  const savings = income.isPositive() && !income.isZero() ? income.minus(expenses) : null;
  return {
    total_income: money(income),
    total_expenses: money(expenses),
    savings_rate: savings === null ? null : rate(ratio(savings.times(HUNDRED), income)),
  };
}
