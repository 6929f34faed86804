import { z } from 'zod';
import { CATEGORIES, DIRECTIONS } from '../../domain/taxonomy.ts';
import { moneySchema } from '../../http/decimal-schemas.ts';
import { paginationFields } from '../../http/pagination.ts';
import { isoDate } from '../../http/schemas.ts';
import { Account } from '../common/account.ts';

/** Still imported from here by src/areas/income/plugin.ts; its home is http/schemas.ts. */

export const Transaction = z
  .object({
    id: z.string().meta({
      description: 'Transaction id (at most 32 characters); the id spending responses refer to.',
    }),
    external_id: z
      .string()
      .nullable()
      .meta({ description: 'The institution’s own id for the transaction.' }),
    account_id: z.string().meta({ description: 'The account the transaction belongs to.' }),
    transacted_at: isoDate('Transaction date.'),
    amount: moneySchema('Amount, always positive; `direction` tells debit from credit.'),
    direction: z.enum(DIRECTIONS).meta({ description: 'DEBIT (money out) or CREDIT (money in).' }),
    description: z.string().meta({ description: 'Statement description.' }),
    merchant_name: z.string().nullable().meta({ description: 'Merchant, when known.' }),
    category: z.enum(CATEGORIES).meta({ description: 'Category from the taxonomy.' }),
    subcategory: z.string().nullable().meta({ description: 'Free-text subcategory.' }),
    merchant_category_code: z
      .string()
      .nullable()
      .meta({ description: 'Card network merchant category code.' }),
    is_hidden: z.boolean().meta({ description: 'Hidden by the user; excluded from spending.' }),
    is_internal_transfer: z.boolean().meta({
      description:
        'A transfer between the user’s own accounts (card payments included); excluded from spending.',
    }),
    is_investment_account: z.boolean().meta({
      description: 'The account is an investment account; its activity is excluded from spending.',
    }),
  })
  .meta({ id: 'Transaction', description: 'One transaction of the user.' });

export const DailyTotal = z
  .object({
    date: isoDate('The day.'),
    debits: moneySchema('Sum of the DEBIT amounts of every matching transaction of the day.'),
    credits: moneySchema('Sum of the CREDIT amounts of every matching transaction of the day.'),
    net: moneySchema('credits minus debits; negative when more went out than came in.'),
    count: z.int().min(1).meta({ description: 'Number of matching transactions of the day.' }),
  })
  .meta({
    id: 'DailyTotal',
    description:
      'Totals of one day present on the returned page, over all matching transactions of that day (not only those on the page), so a day split across pages reports the same figures on each.',
  });

export const TransactionListResponse = z
  .object({
    ...paginationFields,
    transactions: z.array(Transaction).meta({
      description:
        'Matching transactions, newest first (transacted_at descending, then id descending).',
    }),
    accounts: z.array(Account).meta({ description: 'All of the user’s accounts, by id.' }),
    daily_totals: z.array(DailyTotal).meta({
      description: 'One entry per day present in `transactions`, newest first.',
    }),
  })
  .meta({
    id: 'TransactionListResponse',
    description: 'A page (or all) of the user’s transactions.',
  });

export const RemovedTransaction = z
  .object({ id: z.string().meta({ description: 'The id of a transaction no longer there.' }) })
  .meta({ id: 'RemovedTransaction', description: 'A transaction removed since the cursor.' });

export const TransactionSyncResponse = z
  .object({
    added: z.array(Transaction).meta({
      description:
        'Transactions there now that were not at the cursor (every current one without a cursor), by id, as the list shows them.',
    }),
    modified: z.array(Transaction).meta({
      description:
        'Transactions there at the cursor and now whose listed fields changed, by id, as they are now.',
    }),
    removed: z.array(RemovedTransaction).meta({
      description: 'Transactions there at the cursor that are not any more, by id.',
    }),
    next_cursor: z.string().meta({
      description:
        'While `has_more`: the cursor of the next page of this sync (which keeps reading the data it started on). Otherwise: where the next sync starts.',
    }),
    has_more: z.boolean().meta({
      description: 'More changes of this sync follow: ask again with `next_cursor`.',
    }),
  })
  .meta({
    id: 'TransactionSyncResponse',
    description:
      'One page of the net change of the user’s transactions between the cursor and the data the sync started on: `count` changes at most, ordered by transaction id across the three lists.',
  });
