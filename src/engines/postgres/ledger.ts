/**
 * A user's packed ledger (contract/ledger.ts) read from the cluster: one point read of the
 * user's row of the generation's `ledgers`, on the user's shard (the coordinator prunes the
 * partitions by the user id, the distribution column, as for every other read), its bytes read
 * as bytes with a binary COPY (PgPool.copyBytes). COPY takes no bind parameters: the user id
 * is spelled into the statement, and only an id the data contract allows is (any other cannot
 * be a stored user's: it has no ledger).
 */
import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import { isContractId } from '../../contract/tables.ts';
import type { LedgerReads } from '../../port/working-set/ledger.ts';
import type { PgPool } from './pool.ts';

/**
 * `value` as a PostgreSQL string constant: an escape string (E'...'), its backslashes and
 * quotes doubled, which reads the same whatever standard_conforming_strings says.
 */
function escapedText(value: string): string {
  return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** The statement reading `userId`'s ledger of at most `maxRows` transactions in schema `s`. */
export function ledgerSelect(s: string, userId: string, maxRows: number): string {
  if (!isContractId(userId)) throw new RangeError('not an id of the data contract');
  if (!Number.isSafeInteger(maxRows) || maxRows < 0) {
    throw new RangeError(`not a count of transactions: ${maxRows}`);
  }
  return `SELECT packed FROM ${s}.${LEDGERS_TABLE} WHERE user_id = ${escapedText(userId)} AND transactions <= ${maxRows}`;
}

export function ledgerReads(db: PgPool, s: string): LedgerReads {
  return {
    packedLedger: (userId, maxRows) =>
      isContractId(userId)
        ? db.copyBytes(ledgerSelect(s, userId, maxRows))
        : // No stored user has such an id: nothing is read (and nothing spelled in).
          Promise.resolve(null),
    whenIdle: () => db.whenIdle(),
  };
}
