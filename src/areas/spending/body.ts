/**
 * The spending analysis's figures (domain/spending/shape.ts) written as the response body the
 * route's schema declares (schemas.ts): money and percentages with two decimals, the savings
 * rate with one, each rounded once, here (domain/money.ts).
 */
import type { z } from 'zod';
import { type Figure, money, percent, rate } from '../../domain/money.ts';
import type { EntryFigures, PeriodTotal, SpendingAnalysis } from '../../domain/spending/shape.ts';
import type { SpendingAnalysisEnrichedResponse } from './schemas.ts';

/** The body without its per-request fields (request_id, created_at) and the user's currency. */
export type SpendingBody = Omit<
  z.input<typeof SpendingAnalysisEnrichedResponse>,
  'request_id' | 'created_at' | 'currency'
>;

const percentOrNull = (value: Figure | null) => (value === null ? null : percent(value));

export function spendingBody(analysis: SpendingAnalysis): SpendingBody {
  const figures = (entry: EntryFigures) => ({
    total_amount: money(entry.totalAmount),
    transaction_count: entry.transactionCount,
    average_transaction: money(entry.averageTransaction),
    percentage_of_total: percent(entry.percentageOfTotal),
    largest_transaction: {
      transaction_id: entry.largestTransaction.transactionId,
      amount: money(entry.largestTransaction.amount),
      date: entry.largestTransaction.date,
      description: entry.largestTransaction.description,
      merchant_category_code: entry.largestTransaction.merchantCategoryCode,
    },
    trend: percentOrNull(entry.trend),
    flow: entry.flow,
  });
  const timeSeries = (points: readonly PeriodTotal[]) =>
    points.map((point) => ({
      start_date: point.startDate,
      end_date: point.endDate,
      amount: money(point.amount),
      count: point.count,
    }));
  const { summary, cashFlow } = analysis;
  return {
    spending: {
      by_category:
        analysis.byCategory?.map((entry) => ({
          category: entry.category,
          ...figures(entry),
          subcategories: entry.subcategories.map((subcategory) => ({
            name: subcategory.name,
            amount: money(subcategory.amount),
            count: subcategory.count,
          })),
          time_series: timeSeries(entry.timeSeries),
        })) ?? null,
      by_merchant:
        analysis.byMerchant?.map((entry) => ({
          merchant_name: entry.merchantName,
          category: entry.category,
          ...figures(entry),
          is_recurring: entry.isRecurring,
          time_series: timeSeries(entry.timeSeries),
        })) ?? null,
      by_time_period:
        analysis.byTimePeriod?.map((entry) => ({
          time_period: entry.timePeriod,
          start_date: entry.startDate,
          end_date: entry.endDate,
          ...figures(entry),
          transaction_ids: entry.transactionIds,
        })) ?? null,
    },
    summary: {
      total_spending: money(summary.totalSpending),
      average_daily_spending: money(summary.averageDailySpending),
      average_monthly_spending: money(summary.averageMonthlySpending),
      total_transactions: summary.totalTransactions,
      unique_merchants: summary.uniqueMerchants,
      top_category: summary.topCategory,
      top_merchant: summary.topMerchant,
    },
    by_time_period:
      analysis.enrichedPeriods?.map((period) => ({
        start_date: period.startDate,
        end_date: period.endDate,
        total_amount: money(period.totalAmount),
        transaction_count: period.transactionCount,
        percentage_of_total: percent(period.percentageOfTotal),
        trend: percentOrNull(period.trend),
        breakdown: period.breakdown.map((item) => ({
          name: item.name,
          amount: money(item.amount),
          transaction_count: item.transactionCount,
          percentage: percent(item.percentage),
        })),
      })) ?? null,
    total_income: money(cashFlow.totalIncome),
    total_expenses: money(cashFlow.totalExpenses),
    savings_rate: cashFlow.savingsRate === null ? null : rate(cashFlow.savingsRate),
  };
}
