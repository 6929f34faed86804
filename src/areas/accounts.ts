/** The user's accounts: the `accounts` list the transactions list and the balance history return. */
import { z } from 'zod';
import { sqlString } from '../build/schema.ts';
import { ACCOUNT_TYPES, type AccountType } from '../domain/taxonomy.ts';
import type { Store } from '../port/store.ts';

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

/** $1 user. */
const ACCOUNTS_SQL = `
  SELECT id, link_id, name, mask, type, subtype, currency
  FROM accounts WHERE user_id = $1 ORDER BY id`;

/** Every account of the user, by id. */
export function userAccounts(store: Store, userId: string): Promise<Account[]> {
  return store.query<Account>(ACCOUNTS_SQL, [userId]);
}

/** An SQL list of account types, for `type IN (...)`. */
export function accountTypesSql(types: readonly AccountType[]): string {
  return types.map(sqlString).join(', ');
}

/**
 * A subquery (in parentheses) holding the latest balance snapshot of each account of the user
 * ($1), or only of its accounts of the given types: `account_id` and the given columns of
 * `balances`, to LEFT JOIN on `account_id`. Ties on as_of cannot occur: one row a day.
 */
export function latestBalancesSql(
  columns: readonly string[],
  accountTypes?: readonly AccountType[],
): string {
  const ofTypes = accountTypes ? ` AND type IN (${accountTypesSql(accountTypes)})` : '';
  return `(
    SELECT account_id, ${columns.join(', ')}
    FROM balances
    WHERE account_id IN (SELECT id FROM accounts WHERE user_id = $1${ofTypes})
    QUALIFY row_number() OVER (PARTITION BY account_id ORDER BY as_of DESC) = 1
  )`;
}
