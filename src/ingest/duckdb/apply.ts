/**
 * Applying a change set (ingest/changes.ts) to a DuckDB store as a new generation: under the
 * store's write lock (loads serialize), the change set is checked and derived in a scratch
 * database against the published file (opened read-only, so running servers keep reading it),
 * then the file is copied, the delta written into the copy (rows, the rollups of the changed
 * days, the change log, store_meta), and the copy renamed over the store (after the token
 * store, when the change set holds access tokens): readers see the old generation or the new,
 * never a mix. A failure or a kill at any point leaves the published
 * file as it was (a killed load leaves only its temp files, and a lock the next load takes over).
 *
 * The copy costs what copying the file costs (about a second per GB here): the price of never
 * writing the file readers hold open.
 */
import { constants } from 'node:fs';
import { copyFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SPENDING_DAILY_TABLE } from '../../contract/derived.ts';
import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import { newGeneration, storeFormatProblem } from '../../contract/store-format.ts';
import {
  CHANGE_LOG_TABLE,
  CHANGE_SETS_TABLE,
  CHANGED_TABLES_TABLE,
  STORE_META_TABLE,
  TABLE_KEYS,
  TABLE_NAMES,
  TABLE_ORDER,
  type TableName,
} from '../../contract/tables.ts';
import { openDatabaseFile } from '../../files/database-file.ts';
import {
  publishDatabaseFile,
  removeDatabaseFiles,
  tempPathNextTo,
  withWriteLock,
} from '../../files/publish.ts';
import { sqlString } from '../../sql/literals.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../../sql/platform.ts';
import { tokensPathFor } from '../../tokens/path.ts';
import { publishWithTokens } from '../../tokens/token-file.ts';
import {
  type ApplyResult,
  DEFAULT_LOG_SPAN,
  findChangeInputs,
  type LogSpan,
  planChangeSet,
  removedTokens,
  type StoreReader,
} from '../changes.ts';
import { spendingRollupUpdateSql } from '../derive.ts';
import { TOUCHED_LEDGER_USERS_SQL } from '../ledgers.ts';
import { seconds } from '../progress.ts';
import { removeInterruptedBuilds } from './interrupted-builds.ts';
import { writeLedgers } from './ledgers.ts';

export interface ApplyOptions {
  changesDir: string;
  databasePath: string;
  /** The token store the change set's access_tokens go to (default: beside the store). */
  tokensPath?: string;
  /** How long the change log is kept (default DEFAULT_LOG_SPAN). */
  keepLog?: LogSpan;
  onProgress?: (line: string) => void;
}

/** The published state a change set builds on: store_meta's row. */
export interface StoreState {
  generation: string;
  lineage: string;
  seq: number;
  logFloor: number;
}

/** Reads the stored rows from a DuckDB store attached as `schema`. */
const duckdbReader = (schema: string): StoreReader => ({
  async read(conn, table, conditions) {
    // One semi join per condition (an OR of them would scan the table row by row), each
    // adding the rows not read yet.
    const read = TABLE_KEYS[table].map((key) => `c.${key} = t.${key}`).join(' AND ');
    for (const condition of conditions) {
      await conn.run(
        `INSERT INTO cur.${table} SELECT t.* FROM ${schema}.${table} t
         SEMI JOIN ${condition.set} w ON ${condition.columns
           .map((column) => `w.${condition.columns.length === 1 ? 'k' : column} = t.${column}`)
           .join(' AND ')}
         WHERE NOT EXISTS (SELECT 1 FROM cur.${table} c WHERE ${read})`,
      );
    }
  },
});

async function readState(conn: DuckDBConnection, schema: string): Promise<StoreState> {
  const [row] = (
    await conn.runAndReadAll(`SELECT * FROM ${schema}.${STORE_META_TABLE} LIMIT 1`)
  ).getRowObjectsJson();
  // A store of another format may lack what a change set reads and writes (the change log,
  // the derived columns): it is rebuilt once, as a server would refuse it.
  const problem = storeFormatProblem(row, PLATFORM_RULES_FINGERPRINT);
  if (!row || problem || typeof row.lineage !== 'string' || row.seq === null) {
    throw new Error(
      `the store cannot take change sets (${problem ?? 'it records no lineage'}): rebuild it once with --source before applying change sets`,
    );
  }
  return {
    generation: String(row.generation),
    lineage: row.lineage,
    seq: Number(row.seq),
    logFloor: Number(row.log_floor ?? 0),
  };
}

/**
 * The oldest seq cursors may still stand at once change set `seq` is applied: every change
 * set within the span is kept (see docs/data-contract.md, "The change log").
 */
function logFloorSql(span: LogSpan, state: StoreState, seq: number, changeSets: string): string {
  if ('changeSets' in span) return `SELECT ${Math.max(state.logFloor, seq - span.changeSets)}`;
  return `SELECT greatest(${state.logFloor}, coalesce(max(seq), ${state.logFloor}))
          FROM ${changeSets} WHERE applied_at <= CAST(now() AS TIMESTAMP) - INTERVAL ${span.days} DAY`;
}

/** Key equality of a stored row `a` and a delta row `b`. */
const sameKey = (table: TableName, a: string, b: string) =>
  TABLE_KEYS[table].map((key) => `${a}.${key} = ${b}.${key}`).join(' AND ');

/** Writes the delta into the store attached as `out`, as change set `seq`. */
async function writeDelta(
  conn: DuckDBConnection,
  state: StoreState,
  generation: string,
  source: string,
  span: LogSpan,
  progress: (line: string) => void,
): Promise<number> {
  const seq = state.seq + 1;
  let step = performance.now();
  for (const table of TABLE_NAMES) {
    await conn.run(
      `DELETE FROM out.${table} t USING delta.gone_${table} g WHERE ${sameKey(table, 't', 'g')}`,
    );
    await conn.run(
      `INSERT INTO out.${table} SELECT * FROM delta.new_${table} ORDER BY ${TABLE_ORDER[table]}`,
    );
  }
  progress(`  rows removed and written (${seconds(step)})`);
  step = performance.now();
  const hasRollups = await conn.run(`SELECT 1 FROM out.${SPENDING_DAILY_TABLE} LIMIT 0`).then(
    () => true,
    () => false,
  );
  if (hasRollups) {
    for (const statement of spendingRollupUpdateSql(
      'out',
      'delta.days',
      'delta.months',
      'delta.removed_users',
    )) {
      await conn.run(statement);
    }
    progress(`  rollups of the changed days and months derived again (${seconds(step)})`);
  }
  // The touched users' ledgers (which hold their accounts too) are packed again from the new
  // rows.
  await conn.run(
    `DELETE FROM out.main.${LEDGERS_TABLE} WHERE user_id IN (${TOUCHED_LEDGER_USERS_SQL})`,
  );
  await writeLedgers(conn, 'out', TOUCHED_LEDGER_USERS_SQL, (line) => progress(`  ${line}`));
  await conn.run(
    `INSERT INTO out.${CHANGE_LOG_TABLE} SELECT ${seq}, user_id, id, before, after FROM delta.log ORDER BY user_id, id`,
  );
  await conn.run(
    `INSERT INTO out.${CHANGED_TABLES_TABLE} SELECT ${seq}, user_id, table_name FROM delta.changed_tables ORDER BY user_id, table_name`,
  );
  await conn.run(
    `INSERT INTO out.${CHANGE_SETS_TABLE} VALUES ($1, $2, CAST(now() AS TIMESTAMP), $3)`,
    [seq, generation, source],
  );
  const [floorRow] = (
    await conn.runAndReadAll(
      `SELECT (${logFloorSql(span, state, seq, `out.${CHANGE_SETS_TABLE}`)}) AS floor`,
    )
  ).getRowObjectsJson();
  const floor = Number(floorRow?.floor ?? state.logFloor);
  await conn.run(`DELETE FROM out.${CHANGE_LOG_TABLE} WHERE seq <= ${floor}`);
  await conn.run(`DELETE FROM out.${CHANGED_TABLES_TABLE} WHERE seq <= ${floor}`);
  await conn.run(
    `UPDATE out.${STORE_META_TABLE} SET generation = $1, built_at = CAST(now() AS TIMESTAMP),
       source = $2, seq = $3, log_floor = $4`,
    [generation, source, seq, floor],
  );
  return floor;
}

/** Applies a change set to the DuckDB store at `databasePath` as a new generation. */
export async function applyChanges(options: ApplyOptions): Promise<ApplyResult> {
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  const changesDir = resolve(options.changesDir);
  const target = resolve(options.databasePath);
  const inputs = await findChangeInputs(changesDir);
  if (!(await stat(target).catch(() => undefined))?.isFile()) {
    throw new Error(`store not found: ${target} (build it first with --source)`);
  }
  const span = options.keepLog ?? DEFAULT_LOG_SPAN;
  const tokensPath = options.tokensPath ?? tokensPathFor(target);
  const changesTokens = inputs.upserts.has('access_tokens') || inputs.deletes.has('access_tokens');
  const result = await withWriteLock(target, async (): Promise<ApplyResult> => {
    // A killed apply leaves a copy of the store beside it: the size of the store.
    await removeInterruptedBuilds(target, progress);
    const scratchPath = tempPathNextTo(target, 'changes');
    const stagingPath = tempPathNextTo(target, 'staging');
    const copyPath = tempPathNextTo(target, 'apply');
    const scratch = await openDatabaseFile(scratchPath, 'scratch');
    const conn = scratch.conn;
    try {
      await conn.run(`SET TimeZone = 'UTC'`);
      await conn.run(`ATTACH ${sqlString(stagingPath)} AS staging`);
      await conn.run(`ATTACH ${sqlString(target)} AS store (READ_ONLY)`);
      const state = await readState(conn, 'store');
      // Whether the change set's tokens change anything is judged by the token store.
      const tokenStore = changesTokens && (await stat(tokensPath).catch(() => undefined))?.isFile();
      if (tokenStore) await conn.run(`ATTACH ${sqlString(tokensPath)} AS tokens (READ_ONLY)`);
      const summary = await planChangeSet(
        conn,
        inputs,
        duckdbReader('store'),
        progress,
        tokenStore ? 'tokens.access_tokens' : undefined,
      );
      await conn.run('DETACH store');
      if (tokenStore) await conn.run('DETACH tokens');
      if (!summary.changesStore) {
        return { generation: state.generation, seq: state.seq, published: false, summary };
      }

      let step = performance.now();
      // A copy-on-write clone where the file system offers one, else a copy.
      await copyFile(target, copyPath, constants.COPYFILE_FICLONE);
      progress(`copied ${basename(target)} (${seconds(step)})`);
      step = performance.now();
      await conn.run(`ATTACH ${sqlString(copyPath)} AS out`);
      const copied = await readState(conn, 'out');
      if (copied.generation !== state.generation) {
        throw new Error(`${target} changed while the change set was applied; nothing was replaced`);
      }
      const generation = newGeneration();
      const floor = await writeDelta(conn, state, generation, changesDir, span, progress);
      const checkpoint = performance.now();
      await conn.run('CHECKPOINT out');
      progress(`  checkpointed (${seconds(checkpoint)})`);
      await conn.run('DETACH out');
      progress(`wrote change set ${state.seq + 1} into the copy (${seconds(step)})`);
      const revoke = await removedTokens(conn);
      scratch.close();
      const publish = () => publishDatabaseFile(copyPath, target);
      if (changesTokens) {
        // The change set's access_tokens go to the token store, published with the store:
        // upserts join it as a build's do, removals revoke (token-file.ts).
        const tokens = await publishWithTokens(
          tokensPath,
          { importFrom: inputs.upserts.has('access_tokens') ? copyPath : undefined, revoke },
          publish,
        );
        if (inputs.upserts.has('access_tokens')) {
          progress(`access_tokens: ${tokens.added} new in ${tokensPath}`);
        }
        if (revoke.length > 0)
          progress(`access_tokens: ${tokens.revoked} revoked in ${tokensPath}`);
      } else await publish();
      progress(
        `published generation ${generation}: change set ${state.seq + 1} of lineage ${state.lineage}; the change log covers change sets after ${floor}`,
      );
      return { generation, seq: state.seq + 1, published: true, summary };
    } finally {
      scratch.close();
      await Promise.all([scratchPath, stagingPath, copyPath].map(removeDatabaseFiles));
    }
  });
  if (!result.published) return result;
  const { added, modified, removed, users } = result.summary.log;
  progress(
    `applied ${changesDir} to ${target} in ${seconds(started)}: transactions ${added} added, ${modified} modified, ${removed} removed, over ${users} users`,
  );
  return result;
}
