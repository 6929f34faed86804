/**
 * Columns build-db derives and stores next to the contract's transaction columns, so the
 * spending query neither joins accounts nor evaluates the platform patterns per request:
 *
 * - `account_user_id`, `account_type`, `account_link_id`: the transaction's account row's
 *   user, type and link, copied (facts, not rules: the query still applies its own rules);
 * - `to_platform`: whether a DEBIT names an investment platform (platforms.ts). DuckDB compiles
 *   the patterns on every execution of a prepared statement, a fixed few milliseconds per
 *   request whatever the user's size; stored, it costs nothing at query time.
 *
 * The flag depends on the platform list in the code, so the store records a fingerprint of the
 * expression (`store_meta.platform_rules`); the query uses the stored flag only when the
 * fingerprint matches its own, and otherwise evaluates the expression as before.
 */
import { toPlatformSql } from '../engines/duckdb/platform-sql.ts';

export interface DerivedColumn {
  name: string;
  /** DuckDB type of the stored column. */
  type: string;
  /** Over the cast transaction row `t` and its account row `a` (LEFT JOIN: NULL when absent). */
  expression: string;
}

export const DERIVED_TRANSACTION_COLUMNS: readonly DerivedColumn[] = [
  { name: 'account_user_id', type: 'VARCHAR', expression: 'a.user_id' },
  { name: 'account_type', type: 'account_type', expression: 'a.type' },
  { name: 'account_link_id', type: 'VARCHAR', expression: 'a.link_id' },
  { name: 'to_platform', type: 'BOOLEAN NOT NULL', expression: toPlatformSql('t') },
];
