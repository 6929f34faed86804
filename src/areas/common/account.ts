/** An account as the transactions list and the balance history return it. */
import { z } from 'zod';
import { ACCOUNT_TYPES } from '../../domain/taxonomy.ts';

export const Account = z
  .object({
    id: z.string().meta({ description: 'Account id.' }),
    link_id: z
      .string()
      .meta({ description: 'The link (institution or payroll provider) the account belongs to.' }),
    name: z.string().meta({ description: 'Account name.' }),
    mask: z
      .string()
      .nullable()
      .meta({ description: 'Last digits of the account number, when known.' }),
    type: z
      .enum(ACCOUNT_TYPES)
      .meta({ description: 'Account type; `investment` accounts are excluded from spending.' }),
    subtype: z.string().nullable().meta({
      description: 'Finer account kind (checking, savings, credit card, brokerage, ...).',
    }),
    currency: z.string().meta({ description: 'ISO 4217 currency code.' }),
  })
  .meta({ id: 'Account', description: 'One of the user’s accounts.' });
export type Account = z.infer<typeof Account>;
