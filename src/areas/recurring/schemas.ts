/** The recurring streams' query and response (docs/api.md, "GET /v2/users/recurring"). */
import { z } from 'zod';
import { CADENCES } from '../../domain/cadence.ts';
import { STREAM_STATUSES } from '../../domain/recurring/model.ts';
import { CATEGORIES } from '../../domain/taxonomy.ts';
import { moneySchema } from '../../http/decimal-schemas.ts';
import { qList, qStr, queryObject } from '../../http/fastapi/index.ts';
import { isoDate } from '../../http/schemas.ts';

export const AmountChange = z
  .object({
    previous_amount: moneySchema('The amount before the last amount took hold.'),
    changed_on: isoDate('The date of the first transaction at the last amount.'),
  })
  .meta({
    id: 'AmountChange',
    description:
      'The stream’s last amount differs from the one it had before by more than 5% of that one: a price rise or fall.',
  });

export const RecurringStream = z
  .object({
    stream_id: z.string().meta({
      description:
        'Stable while the user, the direction and the merchant key stay: `str_` and the first 24 hex digits of SHA-256 over `user_id`, NUL, the direction, NUL, the merchant key.',
      examples: ['str_4f1c2a9be07d5c3318a6e2f0'],
    }),
    merchant_name: z
      .string()
      .nullable()
      .meta({ description: 'The merchant name of the last transaction; null when it has none.' }),
    description: z.string().meta({ description: 'The description of the last transaction.' }),
    category: z.enum(CATEGORIES).meta({ description: 'The category of the last transaction.' }),
    subcategory: z
      .string()
      .nullable()
      .meta({ description: 'The subcategory of the last transaction.' }),
    cadence: z.enum(CADENCES).meta({
      description:
        'Read from the distinct dates: the median gap in a band (weekly 5-9 days, biweekly or semimonthly 12-17, monthly 26-35, quarterly 80-100, semiannually 165-200, annually 350-380), with 75% of the gaps in that band or twice it (a skipped date); biweekly when the dates fit a 14-day grid at least as closely as two days of the month, else semimonthly.',
    }),
    status: z.enum(STREAM_STATUSES).meta({
      description:
        '`tombstoned` when the predicted next date plus a grace of half a cadence (at least 3 days) is before today; else `mature` from 3 distinct dates (2 when annual), `early_detection` with 2.',
    }),
    is_active: z.boolean().meta({ description: 'False only when tombstoned.' }),
    first_date: isoDate('The date of the first transaction.'),
    last_date: isoDate('The date of the last transaction.'),
    predicted_next_date: isoDate(
      'The next date of the schedule the dates fit best (a day of the month on a weekend: the Friday before); may be past while within the grace; null when tombstoned.',
    ).nullable(),
    transaction_count: z.int().min(2).meta({ description: 'Transactions in the stream.' }),
    average_amount: moneySchema('The mean amount of the stream’s transactions.'),
    last_amount: moneySchema('The amount of the last transaction (latest date, then greatest id).'),
    annual_amount: moneySchema(
      'The mean amount times the cadence’s periods a year (52, 26, 24, 12, 4, 2, 1).',
    ),
    amount_change: AmountChange.nullable().meta({
      description: 'Null unless the last amount differs from the one before by more than 5%.',
    }),
    account_ids: z
      .array(z.string())
      .meta({ description: 'The accounts of the stream’s transactions, ascending.' }),
    transaction_ids: z
      .array(z.string())
      .meta({ description: 'The stream’s transactions, by date, then id.' }),
  })
  .meta({
    id: 'RecurringStream',
    description:
      'The transactions of one direction and one merchant key whose dates keep a cadence: a subscription, a bill, pay.',
  });

export const RecurringStreamsResponse = z
  .object({
    as_of: isoDate('Today: the last day counted, and the day statuses are judged on.'),
    currency: z
      .string()
      .nullable()
      .meta({
        description:
          'ISO 4217 code of every amount: the user’s accounts’ currency; null for a user without accounts.',
        examples: ['USD'],
      }),
    outflow_streams: z.array(RecurringStream).meta({
      description: 'DEBIT streams, by annual_amount descending, then stream_id.',
    }),
    inflow_streams: z.array(RecurringStream).meta({
      description: 'CREDIT streams, by annual_amount descending, then stream_id.',
    }),
  })
  .meta({
    id: 'RecurringStreamsResponse',
    description: 'The user’s recurring streams, money out and money in.',
  });
export type RecurringStreamsResponse = z.infer<typeof RecurringStreamsResponse>;

/** The query, in FastAPI's declaration order (its error order). */
export const RecurringQueryString = queryObject({
  account_ids: qList({
    description:
      'Account ids, comma-separated (`account_ids=a1,a2`), repeated (`account_ids=a1&account_ids=a2`) or both; blanks trimmed, empty items ignored; no item at all (`account_ids=`) means no filter. Ids that are not yours match nothing.',
  }),
  link_id: qStr({
    optional: true,
    description: 'Only accounts of this link; empty means no filter',
  }),
});
