/**
 * A user's packed ledger (contract/ledger.ts) read from the store: one point read of the
 * `ledgers` row build-db wrote for the user, its bytes as DuckDB holds them.
 */
import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import type { LedgerReads } from '../../port/working-set/ledger.ts';
import type { DuckDbPool } from './pool.ts';

/** $1 user, $2 the most transactions held. */
const LEDGER_SQL = `SELECT packed FROM ${LEDGERS_TABLE} WHERE user_id = $1::VARCHAR AND transactions <= $2::BIGINT`;

export function ledgerReads(db: DuckDbPool): LedgerReads {
  return {
    packedLedger: (userId, maxRows) => db.queryBytes(LEDGER_SQL, [userId, maxRows]),
    whenIdle: () => db.whenIdle(),
  };
}
