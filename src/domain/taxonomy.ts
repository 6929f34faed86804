/** The data contract's vocabularies: the category taxonomy, directions, account, link and liability kinds. */

/** The category taxonomy, in the contract's order. */
export const CATEGORIES = [
  'Income',
  'Transfer In',
  'Transfer Out',
  'Loan Payments',
  'Bank Fees',
  'Entertainment',
  'Food and Drink',
  'General Merchandise',
  'Home Improvement',
  'Medical',
  'Personal Care',
  'General Services',
  'Government and Non-Profit',
  'Transportation',
  'Travel',
  'Rent and Utilities',
  'Other',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const DIRECTIONS = ['DEBIT', 'CREDIT'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const ACCOUNT_TYPES = ['depository', 'credit', 'loan', 'investment', 'other'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
/** Account types whose balance is owed, not owned (`current` is the amount owed). */
export const LIABILITY_ACCOUNT_TYPES = ['credit', 'loan'] as const satisfies readonly AccountType[];
export type LiabilityAccountType = (typeof LIABILITY_ACCOUNT_TYPES)[number];
export const LINK_TYPES = ['institution', 'payroll'] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export const LINK_STATUSES = ['active', 'error', 'disconnected'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
export const LIABILITY_KINDS = [
  'credit_card',
  'student_loan',
  'mortgage',
  'auto_loan',
  'personal_loan',
  'other',
] as const;
export type LiabilityKind = (typeof LIABILITY_KINDS)[number];

/**
 * The currency a user's amounts are in: the contract keeps one per user, so the currency of
 * their accounts (the first by id should they ever differ); null for a user without accounts.
 */
export function userCurrency(accounts: readonly { id: string; currency: string }[]): string | null {
  let first: { id: string; currency: string } | undefined;
  for (const account of accounts) if (!first || account.id < first.id) first = account;
  return first?.currency ?? null;
}
