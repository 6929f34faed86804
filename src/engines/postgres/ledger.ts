/**
 * A user's packed ledger (contract/ledger.ts) read from the cluster: one point read of the
 * user's row of the generation's `ledgers`, on the user's shard.
 */
import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import type { LedgerReads } from '../../port/working-set/ledger.ts';
import type { PgPool } from './pool.ts';

export function ledgerReads(db: PgPool, s: string): LedgerReads {
  // $1 user, $2 the most transactions held.
  const sql = `SELECT packed FROM ${s}.${LEDGERS_TABLE} WHERE user_id = $1 AND transactions <= $2`;
  return {
    packedLedger: (userId, maxRows) => db.queryBytes(sql, [userId, maxRows]),
  };
}
