/** The spending query and the response components, under the names docs/api.md gives them. */
import { z } from 'zod';
import { TIME_PERIODS } from '../../domain/calendar.ts';
import { GROUP_BYS, SECONDARY_GROUP_BYS } from '../../domain/spending/model.ts';
import { decimalString as decimal } from '../../http/decimal-schemas.ts';
import {
  qBool,
  qDate,
  qDecimal,
  qEnum,
  qList,
  qStr,
  queryObject,
} from '../../http/fastapi/index.ts';
import { isoDate } from '../../http/schemas.ts';
import { categoriesParameter } from '../common/categories-filter.ts';

const trend = z
  .union([decimal('Percentage change from the previous period, two decimals'), z.null()])
  .optional();
/** A calendar period's first and last day, clipped to the window. */
const periodDates = {
  start_date: isoDate('Period start, clipped to the window.').nullable().optional(),
  end_date: isoDate('Period end, clipped to the window.'),
};
const flow = z
  .enum(['spending', 'income'])
  .meta({ description: 'Whether the entry totals DEBITs (spending) or CREDITs (income)' });

const LargestTransaction = z
  .looseObject({
    transaction_id: z.string().max(32).meta({ description: 'The transaction `id`' }),
    amount: decimal('Amount, two decimals'),
    date: isoDate('Transaction date.'),
    description: z.string(),
    merchant_category_code: z.string().nullable().optional(),
  })
  .meta({
    id: 'LargestTransaction',
    description:
      'The largest counted transaction of the entry (ties: latest date, then smallest id)',
  });

const Subcategory = z
  .looseObject({ name: z.string(), amount: decimal('Total, two decimals'), count: z.int() })
  .meta({
    id: 'Subcategory',
    description: 'An entry’s total in one subcategory (missing ones under Uncategorized)',
  });

const TimeSeriesPoint = z
  .looseObject({
    ...periodDates,
    amount: decimal('Total, two decimals'),
    count: z.int(),
  })
  .meta({
    id: 'TimeSeriesPoint',
    description: 'An entry’s total in one calendar period of `time_period`',
  });

const entryFigures = {
  total_amount: decimal('Total, two decimals'),
  transaction_count: z.int(),
  average_transaction: decimal('Total / count, two decimals'),
  percentage_of_total: decimal('Share of the flow total, two decimals'),
  largest_transaction: LargestTransaction,
  trend,
  flow,
};

const CategorySpending = z
  .looseObject({
    category: z.string(),
    ...entryFigures,
    subcategories: z.array(Subcategory),
    time_series: z.array(TimeSeriesPoint),
  })
  .meta({
    id: 'CategorySpending',
    description: 'One category: spending, or income when `flow` is `income`',
  });

const MerchantSpending = z
  .looseObject({
    merchant_name: z.string(),
    category: z.string(),
    ...entryFigures,
    is_recurring: z.boolean(),
    time_series: z.array(TimeSeriesPoint),
  })
  .meta({
    id: 'MerchantSpending',
    description: 'One merchant: spending, or income when `flow` is `income`',
  });

const TimePeriodSpendingWithTransactionIds = z
  .looseObject({
    time_period: z.enum(TIME_PERIODS),
    ...periodDates,
    ...entryFigures,
    transaction_ids: z
      .array(z.string())
      .nullable()
      .optional()
      .meta({ description: 'The counted ids, ordered; only for a single-day day grouping' }),
  })
  .meta({
    id: 'TimePeriodSpendingWithTransactionIds',
    description: 'One calendar period: spending, or income when `flow` is `income`',
  });

const SpendingBreakdownItem = z
  .object({
    name: z.string(),
    amount: decimal('Total, two decimals'),
    transaction_count: z.int(),
    percentage: decimal("Share of the period's total, two decimals"),
  })
  .meta({
    id: 'SpendingBreakdownItem',
    description: 'One category or merchant of a period’s breakdown, or `Other`: the rest',
  });

const TimePeriodSpendingEnriched = z
  .object({
    ...periodDates,
    total_amount: decimal('Total spending in the period'),
    transaction_count: z.int(),
    percentage_of_total: decimal('Share of the total spending'),
    trend,
    breakdown: z.array(SpendingBreakdownItem),
  })
  .meta({
    id: 'TimePeriodSpendingEnriched',
    description: 'One calendar period of the double aggregation, with its top 10 plus `Other`',
  });

const SpendingDataWithTransactionIds = z
  .looseObject({
    by_category: z.array(CategorySpending).nullable(),
    by_merchant: z.array(MerchantSpending).nullable(),
    by_time_period: z.array(TimePeriodSpendingWithTransactionIds).nullable(),
  })
  .meta({
    id: 'SpendingDataWithTransactionIds',
    description:
      'Aggregated spending data: the list of `group_by` is filled, the two others are null',
  });

const SpendingSummary = z
  .looseObject({
    total_spending: decimal('Total counted spending'),
    average_daily_spending: decimal('Total / days in the window'),
    average_monthly_spending: decimal('Average daily x 30.4375'),
    total_transactions: z.int(),
    unique_merchants: z.int(),
    top_category: z.string(),
    top_merchant: z.string(),
  })
  .meta({
    id: 'SpendingSummary',
    description: 'Summary statistics of the counted spending over the window',
  });

const cashFlowField = (description: string) => z.union([decimal(description), z.null()]).optional();

export const SpendingAnalysisEnrichedResponse = z
  .object({
    spending: SpendingDataWithTransactionIds,
    summary: SpendingSummary,
    request_id: z.string().meta({ description: 'Equals the x-request-id header' }),
    created_at: z
      .string()
      .meta({ description: 'Analysis creation timestamp', format: 'date-time' }),
    by_time_period: z.array(TimePeriodSpendingEnriched).nullable().optional().meta({
      description: 'Present only when group_by=time_period and secondary_group_by is set',
    }),
    total_income: cashFlowField('Whole-window CREDIT total on the cash-flow basis'),
    total_expenses: cashFlowField('Whole-window DEBIT total on the cash-flow basis'),
    savings_rate: cashFlowField('(income - expenses) / income x 100, one decimal'),
    currency: z
      .string()
      .nullable()
      .optional()
      .meta({
        description:
          'ISO 4217 code of every amount in the answer: the user’s accounts’ currency (one per user); null for a user without accounts. Always sent; optional in the published interface.',
        examples: ['USD'],
      }),
  })
  .meta({
    id: 'SpendingAnalysisEnrichedResponse',
    description: 'Categorized spending totals of the token’s user',
  });

/** The query of both spending endpoints, in FastAPI's declaration order (its error order). */
export const SpendingQueryString = queryObject({
  group_by: qEnum(GROUP_BYS, {
    description: 'What the listed entries are: category, merchant or time_period',
  }),
  time_period: qEnum(TIME_PERIODS, {
    description: 'Calendar period of time series, trends and period entries',
  }),
  link_id: qStr({
    optional: true,
    description: 'Only accounts of this link; empty means no filter',
  }),
  start_date: qDate({
    optional: true,
    description:
      'First day (inclusive); default: the day after the same date a year before end_date',
  }),
  end_date: qDate({
    optional: true,
    description: 'Last day (inclusive); omitted or future: today',
  }),
  account_ids: qList({
    description:
      'Account ids, comma-separated (`account_ids=a1,a2`), repeated (`account_ids=a1&account_ids=a2`) or both; blanks trimmed, empty items ignored; no item at all (`account_ids=`) means no filter. Ids that are not yours match nothing.',
  }),
  categories: categoriesParameter,
  min_total_amount: qDecimal({
    default: '50.00',
    description: 'Category and merchant entries totalling less are left out of their lists',
  }),
  include_income: qBool({ default: false, description: 'Also list income entries (CREDITs)' }),
  secondary_group_by: qEnum(SECONDARY_GROUP_BYS, {
    optional: true,
    description: 'With group_by=time_period: a per-period breakdown by category or merchant',
  }),
});
export type SpendingQueryString = z.infer<typeof SpendingQueryString>;
