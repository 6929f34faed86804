import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatMoneyOrNull, formatRate } from '../../domain/money.ts';
import { LIABILITY_ACCOUNT_TYPES, LIABILITY_KINDS } from '../../domain/taxonomy.ts';
import { decimalString, moneySchema } from '../../http/decimal-schemas.ts';
import { isoDate, protectedResponses } from '../../http/schemas.ts';

export const Liability = z
  .object({
    account_id: z.string().meta({ description: 'The credit or loan account.' }),
    account_name: z.string().meta({ description: 'Account name.' }),
    account_type: z.enum(LIABILITY_ACCOUNT_TYPES).meta({ description: 'Account type.' }),
    account_subtype: z
      .string()
      .nullable()
      .meta({ description: 'Finer account kind (credit card, mortgage, student, auto, ...).' }),
    kind: z.enum(LIABILITY_KINDS).nullable().meta({
      description:
        'Liability kind; null when the pipeline reported no liability details for the account.',
    }),
    apr: decimalString()
      .nullable()
      .meta({
        description:
          'Annual percentage rate, in percent, as reported (at least two decimals, up to four).',
        examples: ['24.99', '6.875'],
      }),
    minimum_payment: moneySchema('Minimum payment due.').nullable(),
    next_payment_due_date: isoDate('Next payment due date.').nullable(),
    last_payment_amount: moneySchema('Amount of the last payment.').nullable(),
    last_payment_date: isoDate('Date of the last payment.').nullable(),
    original_principal: moneySchema('Original loan principal.').nullable(),
    current_balance: moneySchema(
      'Amount owed, from the account’s latest balance snapshot; null without one.',
    ).nullable(),
    as_of: isoDate('Date of that snapshot.').nullable(),
  })
  .meta({ id: 'Liability', description: 'A credit or loan account and its liability details.' });

export const LiabilitiesResponse = z
  .object({
    liabilities: z
      .array(Liability)
      .meta({ description: 'Every credit and loan account of the user, by account id.' }),
  })
  .meta({ id: 'LiabilitiesResponse', description: 'The user’s credit and loan liabilities.' });

export const liabilitiesPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/users/liabilities',
    {
      schema: {
        operationId: 'getLiabilities',
        summary: 'Liabilities',
        description:
          'Every credit and loan account of the user with its liability details (APR, minimum payment, due date, last payment, original principal) ' +
          'and its current balance (the amount owed) from the latest snapshot. Accounts without reported details carry nulls.',
        tags: ['liabilities'],
        response: { 200: LiabilitiesResponse, ...protectedResponses },
      },
    },
    async (request) => {
      const rows = await request.store.liabilities(request.userId);
      return {
        liabilities: rows.map((row) => ({
          ...row,
          apr: row.apr === null ? null : formatRate(row.apr),
          minimum_payment: formatMoneyOrNull(row.minimum_payment),
          last_payment_amount: formatMoneyOrNull(row.last_payment_amount),
          original_principal: formatMoneyOrNull(row.original_principal),
          current_balance: formatMoneyOrNull(row.current_balance),
        })),
      };
    },
  );
};
