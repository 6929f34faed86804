/**
 * A user's ledger as the store derives it for the working set (port/working-set/): the flags
 * each transaction carries, computed by the engines' SQL (sql/counted.ts) from the spending
 * rules.
 */

/** The bits of a row's flags, as the engines compute them. */
export const LEDGER_FLAGS = {
  hidden: 1,
  internalTransfer: 2,
  investmentAccount: 4,
  /** A DEBIT to an investment platform (the stored `to_platform`). */
  toPlatform: 8,
  /** Spending rules 1-4 hold: the user's own account, not hidden, not internal, not investment. */
  counted: 16,
} as const;
