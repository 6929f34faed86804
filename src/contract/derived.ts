/**
 * The tables build-db derives from the contract's tables (ingest/derive.ts says what they
 * hold), by name, for the engines that read them.
 */

/** A user gets the monthly rollup when his months hold this many times fewer groups than his days. */
export const MONTHLY_MIN_DENSITY = 4;
export const SPENDING_DAILY_TABLE = 'spending_daily';
export const SPENDING_MONTHLY_TABLE = 'spending_monthly';
export const SPENDING_MONTHLY_USERS_TABLE = 'spending_monthly_users';

/** A transaction text column folded by DuckDB's lower() (the loader stores both). */
export const foldedColumn = (column: 'description' | 'merchant_name') => `${column}_folded`;
