/** GET /v1/accounts: the user's accounts with their link and latest balance. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatMoneyOrNull } from '../../domain/money.ts';
import { moneySchema } from '../../http/decimal-schemas.ts';
import { isoDate, protectedResponses } from '../../http/schemas.ts';
import { Account } from '../common/account.ts';

export const AccountLatestBalance = z
  .object({
    current: moneySchema('Latest balance; for credit and loan accounts the amount owed.'),
    available: moneySchema('Available balance, when reported.').nullable(),
    credit_limit: moneySchema('Credit limit, when reported.').nullable(),
    as_of: isoDate('Date of the latest snapshot.'),
  })
  .meta({ id: 'AccountLatestBalance', description: 'An account’s latest balance snapshot.' });

export const AccountWithBalance = Account.extend({
  balance: AccountLatestBalance.nullable().meta({
    description: 'The latest balance snapshot; null when the account has none yet.',
  }),
}).meta({
  id: 'AccountWithBalance',
  description: 'One of the user’s accounts, with its latest balance.',
});

export const AccountListResponse = z
  .object({
    accounts: z
      .array(AccountWithBalance)
      .meta({ description: 'Every account of the user, by id.' }),
  })
  .meta({ id: 'AccountListResponse', description: 'The user’s accounts.' });

export const accountsPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/accounts',
    {
      schema: {
        operationId: 'listAccounts',
        summary: 'List accounts',
        description:
          'Every account of the user (its link, type, subtype, currency) with its latest balance snapshot, or `balance: null` when it has none.',
        tags: ['accounts'],
        response: { 200: AccountListResponse, ...protectedResponses },
      },
    },
    async (request) => {
      const rows = await request.store.latestBalances(request.userId);
      return {
        accounts: rows.map((row) => ({
          id: row.account_id,
          link_id: row.link_id,
          name: row.name,
          mask: row.mask,
          type: row.type,
          subtype: row.subtype,
          currency: row.currency,
          balance:
            row.current === null || row.as_of === null
              ? null
              : {
                  current: formatMoneyOrNull(row.current) as string,
                  available: formatMoneyOrNull(row.available),
                  credit_limit: formatMoneyOrNull(row.credit_limit),
                  as_of: row.as_of,
                },
        })),
      };
    },
  );
};
