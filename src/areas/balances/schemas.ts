import { z } from 'zod';
import { ACCOUNT_TYPES } from '../../domain/taxonomy.ts';
import { moneySchema } from '../../http/decimal-schemas.ts';
import { isoDate } from '../../http/schemas.ts';

export const AccountBalance = z
  .object({
    account_id: z.string().meta({ description: 'Account id.' }),
    link_id: z.string().meta({ description: 'The link the account belongs to.' }),
    name: z.string().meta({ description: 'Account name.' }),
    mask: z
      .string()
      .nullable()
      .meta({ description: 'Last digits of the account number, when known.' }),
    type: z.enum(ACCOUNT_TYPES).meta({
      description:
        'Account type: depository, investment and other count as assets; credit and loan as liabilities.',
    }),
    subtype: z.string().nullable().meta({ description: 'Finer account kind.' }),
    currency: z.string().meta({ description: 'ISO 4217 currency code.' }),
    current: moneySchema(
      'Latest balance; for credit and loan accounts the amount owed. Null when the account has no balance yet.',
    ).nullable(),
    available: moneySchema('Available balance of the latest snapshot, when reported.').nullable(),
    credit_limit: moneySchema('Credit limit of the latest snapshot, when reported.').nullable(),
    as_of: isoDate('Date of the latest snapshot; null when the account has none.').nullable(),
  })
  .meta({ id: 'AccountBalance', description: 'An account’s latest balance snapshot.' });

export const BalanceTotals = z
  .object({
    assets: moneySchema(
      'Sum of the latest `current` of depository, investment and other accounts.',
    ),
    liabilities: moneySchema(
      'Sum of the latest `current` (amount owed) of credit and loan accounts.',
    ),
    net_worth: moneySchema('assets minus liabilities.'),
    as_of: isoDate(
      'Latest snapshot date among the accounts; null when no account has a balance.',
    ).nullable(),
    currency: z
      .string()
      .nullable()
      .meta({
        description:
          'ISO 4217 code of the totals: the user’s accounts’ currency (one per user); null without accounts.',
        examples: ['USD'],
      }),
  })
  .meta({
    id: 'BalanceTotals',
    description: 'Assets, liabilities and net worth from the latest balances.',
  });

export const BalancesResponse = z
  .object({
    balances: z.array(AccountBalance).meta({
      description: 'Every account of the user, by id; accounts without a snapshot carry nulls.',
    }),
    totals: BalanceTotals,
  })
  .meta({ id: 'BalancesResponse', description: 'Current balances and net worth.' });
