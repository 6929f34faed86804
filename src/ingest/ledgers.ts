/**
 * The packed ledgers (contract/ledger.ts) as ingest derives them, on either engine: the engine
 * aggregates each user's transactions, in the list's order, into one byte string of records
 * (`ledgerRecordsSql`), and packLedger lays them out. One value per user crosses from the
 * engine into JavaScript: read value by value, the strings alone cost a native call each (13 s
 * for a million rows here, against 2 s this way).
 *
 * A record is a row's day number, cents, flags (LEDGER_FLAGS and CREDIT) and category index,
 * each in decimal followed by `,`; then its seven texts (LEDGER_TEXTS' order), each `-` for a
 * null or its length in UTF-8 bytes, `:`, and its bytes: whatever a text holds, no separator is
 * ever taken for part of it.
 */
import { Buffer } from 'node:buffer';
import { DuckDBBlobVector, type DuckDBConnection } from '@duckdb/node-api';
import {
  CREDIT,
  LEDGER_TEXTS,
  type LedgerInput,
  type LedgerText,
  LedgerTooLargeError,
  packLedger,
  unpackLedger,
} from '../contract/ledger.ts';
import { CATEGORIES } from '../domain/taxonomy.ts';
import { ledgerFlagsSql } from '../sql/counted.ts';
import { sqlString } from '../sql/literals.ts';

/** The most transactions a user's ledger is packed with: one with more is not packed. */
export const PACKED_LEDGER_MAX_ROWS = 50_000;

/** Users packed per statement: the engine holds a statement's records in memory at once. */
export const LEDGER_BATCH_ROWS = 400_000;

export type LedgerDialect = 'duckdb' | 'postgres';

/**
 * The users whose ledgers a change set packs again, from its delta (ingest/changes.ts): those
 * whose transactions or accounts changed (a ledger holds the user's accounts too; an account
 * moved to another user touches both), and those added or removed.
 */
export const TOUCHED_LEDGER_USERS_SQL = `SELECT user_id FROM delta.gone_transactions
  UNION SELECT user_id FROM delta.new_transactions
  UNION SELECT user_id FROM delta.gone_accounts UNION SELECT user_id FROM delta.new_accounts
  UNION SELECT id FROM delta.gone_users UNION SELECT id FROM delta.new_users`;

/** The columns of transactions `t` in LedgerText order. */
const TEXT_COLUMNS: Record<LedgerText, string> = {
  id: 'id',
  externalId: 'external_id',
  account: 'account_id',
  description: 'description',
  merchant: 'merchant_name',
  subcategory: 'subcategory',
  code: 'merchant_category_code',
};

/**
 * SQL of one row per user of the transactions `t` that `where` keeps: `user_id`,
 * `transactions` (the count) and `records`, the records as bytes (a BLOB, or bytea), newest
 * first. On DuckDB the copied account's user must be the row's for a row to count (the
 * cluster's rows carry the user of their account by construction).
 */
export function ledgerRecordsSql(dialect: LedgerDialect, from: string, where: string): string {
  const bytes = dialect === 'duckdb' ? 'strlen' : 'octet_length';
  const varchar = dialect === 'duckdb' ? 'VARCHAR' : 'text';
  const text = (column: string) =>
    `coalesce(${bytes}(t.${column})::${varchar} || ':' || t.${column}, '-')`;
  const category =
    dialect === 'duckdb'
      ? 'enum_code(t.category)'
      : `array_position(ARRAY[${CATEGORIES.map(sqlString).join(', ')}], t.category::text) - 1`;
  const flags = ledgerFlagsSql(
    't',
    dialect === 'duckdb' ? 't.account_user_id = t.user_id' : undefined,
  );
  const record = [
    `(t.transacted_at - DATE '1970-01-01')::${varchar}`,
    `(t.amount * 100)::BIGINT::${varchar}`,
    `(${flags} + CASE WHEN t.direction = 'CREDIT' THEN ${CREDIT} ELSE 0 END)::${varchar}`,
    `(${category})::${varchar}`,
  ]
    .map((field) => `${field}, ','`)
    .concat(LEDGER_TEXTS.map((name) => text(TEXT_COLUMNS[name])))
    .join(', ');
  const aggregated = `string_agg(concat(${record}), '' ORDER BY t.transacted_at DESC, t.id DESC)`;
  const asBytes =
    dialect === 'duckdb' ? `encode(${aggregated})` : `convert_to(${aggregated}, 'UTF8')`;
  // On PostgreSQL, ordering the users downwards lets the planner take every row in the order
  // the aggregate wants from a (user_id, transacted_at, id) index read backwards (the cluster's
  // transactions have one) rather than sort them: two fifths of the statement's time.
  const order = dialect === 'postgres' ? ' ORDER BY t.user_id DESC' : '';
  return `SELECT t.user_id, count(*)::INTEGER AS transactions, ${asBytes} AS records
FROM ${from} t WHERE ${where} GROUP BY t.user_id${order}`;
}

/** The fields of an account as the store lists them (the engines' `accounts`), in order. */
const ACCOUNT_FIELDS = ['id', 'link_id', 'name', 'mask', 'type', 'subtype', 'currency'];

/** The control characters JSON writes with a short escape (`\n`, ...). */
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  8: 'b',
  9: 't',
  10: 'n',
  12: 'f',
  13: 'r',
};

/**
 * How DuckDB's to_json writes a string's characters that JSON escapes (its writer, yyjson): `"`
 * and `\` escaped, the control characters by their short escapes or as `\u00XX` in capitals
 * (PostgreSQL's to_json writes small letters there); nothing else (`/`, U+007F and every other
 * character are written as they are). U+0000 is left out: the data contract refuses it.
 */
const JSON_ESCAPES: readonly [code: number, escaped: string][] = [
  // The backslash first: the escapes written after it hold backslashes of their own.
  [0x5c, '\\\\'],
  [0x22, '\\"'],
  ...Array.from({ length: 0x1f }, (_, index): [number, string] => {
    const code = index + 1;
    const short = SHORT_ESCAPES[code];
    return [
      code,
      short ? `\\${short}` : `\\u00${code.toString(16).toUpperCase().padStart(2, '0')}`,
    ];
  }),
];

/** PostgreSQL: the JSON text of text `value` as DuckDB's to_json writes it (`null` for a null). */
function postgresJsonString(value: string): string {
  const escaped = JSON_ESCAPES.reduce(
    (sql, [code, text]) => `replace(${sql}, chr(${code}), ${sqlString(text)})`,
    value,
  );
  return `coalesce('"' || ${escaped} || '"', 'null')`;
}

/**
 * SQL of one row per user of the accounts `a` that `where` keeps: `user_id` and `accounts`,
 * the user's accounts by id as JSON text, with the fields the engines' account reads return.
 * The text is DuckDB's to_json's on both engines, byte for byte (so a ledger is the same bytes
 * on both): PostgreSQL's json_agg spaces its objects out (`{"id" : "a", ...}, {...}`), so there
 * the text is put together from its parts.
 */
export function ledgerAccountsSql(dialect: LedgerDialect, from: string, where: string): string {
  const json =
    dialect === 'duckdb'
      ? `to_json(list({${ACCOUNT_FIELDS.map((field) => `'${field}': a.${field}`).join(', ')}} ORDER BY a.id))::VARCHAR`
      : `'[' || string_agg('{' || ${ACCOUNT_FIELDS.map((field, index) => `'${index === 0 ? '' : ','}"${field}":' || ${postgresJsonString(`a.${field}::text`)}`).join(' || ')} || '}', ',' ORDER BY a.id) || ']'`;
  return `SELECT a.user_id, ${json} AS accounts FROM ${from} a WHERE ${where} GROUP BY a.user_id`;
}

/** A user without accounts. */
export const NO_ACCOUNTS = new TextEncoder().encode('[]');

const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;

/**
 * The packer's input from one user's records (`rows` of them) and accounts (JSON text in
 * UTF-8: ledgerAccountsSql).
 */
export function parseLedgerRecords(
  records: Uint8Array,
  rows: number,
  accounts: Uint8Array,
): LedgerInput {
  const days = new Int32Array(rows);
  const cents = new Float64Array(rows);
  const flags = new Uint8Array(rows);
  const categories = new Uint8Array(rows);
  const texts = Object.fromEntries(
    LEDGER_TEXTS.map((name) => [
      name,
      { starts: new Int32Array(rows), ends: new Int32Array(rows) },
    ]),
  ) as LedgerInput['texts'];
  const columns = LEDGER_TEXTS.map((name) => texts[name]);
  let at = 0;
  const malformed = () => new Error(`malformed ledger records at byte ${at} of ${records.length}`);
  const integer = () => {
    const negative = records[at] === MINUS;
    if (negative) at++;
    let value = 0;
    let digits = 0;
    for (let byte = records[at]; byte !== COMMA; byte = records[at]) {
      if (byte === undefined || byte < ZERO || byte > ZERO + 9) throw malformed();
      value = value * 10 + (byte - ZERO);
      digits++;
      at++;
    }
    if (digits === 0) throw malformed();
    at++;
    return negative ? -value : value;
  };
  for (let row = 0; row < rows; row++) {
    days[row] = integer();
    cents[row] = integer();
    flags[row] = integer();
    categories[row] = integer();
    for (const column of columns) {
      if (records[at] === MINUS) {
        column.starts[row] = -1;
        column.ends[row] = -1;
        at++;
        continue;
      }
      let length = 0;
      for (let byte = records[at]; byte !== COLON; byte = records[at]) {
        if (byte === undefined || byte < ZERO || byte > ZERO + 9) throw malformed();
        length = length * 10 + (byte - ZERO);
        at++;
      }
      at++;
      column.starts[row] = at;
      column.ends[row] = at + length;
      at += length;
    }
  }
  if (at !== records.length) throw malformed();
  return { rows, days, cents, flags, categories, source: records, texts, accounts };
}

/** A transaction id as a ledger's texts compare it: its UTF-8 bytes, one character each. */
export const idKey = (id: string) => Buffer.from(id, 'utf8').toString('latin1');

/**
 * A user's packer input after a change set, from the one before (unpackLedger): the rows whose
 * ids `removed` names (idKey) or `added` holds left out, and `added` (records of the user's
 * new rows, in the list's order) merged in by the list's order; the accounts are `added`'s,
 * which the caller reads from the store as the change set leaves them (the ledger before's
 * are never kept: an account can change with none of its transactions). The input his rows and
 * accounts after the change set give.
 */
export function changedLedgerInput(
  before: LedgerInput,
  removed: ReadonlySet<string>,
  added: LedgerInput,
): LedgerInput {
  const oldSource = Buffer.from(
    before.source.buffer,
    before.source.byteOffset,
    before.source.length,
  );
  const newSource = Buffer.from(added.source.buffer, added.source.byteOffset, added.source.length);
  const keyOf = (input: LedgerInput, source: Buffer, row: number) =>
    source.toString('latin1', input.texts.id.starts[row], input.texts.id.ends[row]);
  const newKeys = Array.from({ length: added.rows }, (_, row) => keyOf(added, newSource, row));
  const gone = new Set([...removed, ...newKeys]);
  const kept: number[] = [];
  const keptKeys: string[] = [];
  for (let row = 0; row < before.rows; row++) {
    const key = keyOf(before, oldSource, row);
    if (gone.has(key)) continue;
    kept.push(row);
    keptKeys.push(key);
  }
  const rows = kept.length + added.rows;
  const source = new Uint8Array(before.source.length + added.source.length);
  source.set(before.source);
  source.set(added.source, before.source.length);
  const merged: LedgerInput = {
    rows,
    days: new Int32Array(rows),
    cents: new Float64Array(rows),
    flags: new Uint8Array(rows),
    categories: new Uint8Array(rows),
    source,
    texts: Object.fromEntries(
      LEDGER_TEXTS.map((name) => [
        name,
        { starts: new Int32Array(rows), ends: new Int32Array(rows) },
      ]),
    ) as LedgerInput['texts'],
    accounts: added.accounts,
  };
  const take = (from: LedgerInput, row: number, to: number, shift: number) => {
    merged.days[to] = from.days[row] as number;
    merged.cents[to] = from.cents[row] as number;
    merged.flags[to] = from.flags[row] as number;
    merged.categories[to] = from.categories[row] as number;
    for (const name of LEDGER_TEXTS) {
      const start = from.texts[name].starts[row] as number;
      merged.texts[name].starts[to] = start < 0 ? -1 : start + shift;
      merged.texts[name].ends[to] = start < 0 ? -1 : (from.texts[name].ends[row] as number) + shift;
    }
  };
  // Newest first: day descending, then id descending.
  let old = 0;
  let fresh = 0;
  for (let to = 0; to < rows; to++) {
    const oldRow = kept[old];
    const oldFirst =
      fresh === added.rows ||
      (oldRow !== undefined &&
        ((before.days[oldRow] as number) > (added.days[fresh] as number) ||
          ((before.days[oldRow] as number) === (added.days[fresh] as number) &&
            (keptKeys[old] as string) > (newKeys[fresh] as string))));
    if (oldFirst) take(before, kept[old++] as number, to, 0);
    else take(added, fresh++, to, before.source.length);
  }
  return merged;
}

/**
 * Users in id order, split into runs whose transactions add up to at most `maxRows` (a run
 * holds at least one user): each run is one statement of records.
 */
export function ledgerBatches<T extends { transactions: number }>(
  users: readonly T[],
  maxRows = LEDGER_BATCH_ROWS,
): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let rows = 0;
  for (const user of users) {
    if (batch.length > 0 && rows + user.transactions > maxRows) {
      batches.push(batch);
      batch = [];
      rows = 0;
    }
    batch.push(user);
    rows += user.transactions;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** What a change set changed of its users' transactions, from its delta (ingest/changes.ts). */
export interface LedgerDelta {
  /** Per user, the ids (idKey) of his stored transactions it replaces or removes. */
  gone: ReadonlyMap<string, ReadonlySet<string>>;
  /** Per user, the records (ledgerRecordsSql) of his new transactions, in the list's order. */
  added: ReadonlyMap<string, { count: number; bytes: Uint8Array }>;
  /** The users it removes. */
  removed: ReadonlySet<string>;
}

/** The delta of the change set planned in the scratch database `conn` (either engine's). */
export async function readLedgerDelta(conn: DuckDBConnection): Promise<LedgerDelta> {
  const gone = new Map<string, Set<string>>();
  for (const row of (
    await conn.runAndReadAll(
      'SELECT user_id, list(id) AS ids FROM delta.gone_transactions GROUP BY user_id',
    )
  ).getRowObjectsJson()) {
    gone.set(String(row.user_id), new Set((row.ids as string[]).map(idKey)));
  }
  const added = new Map<string, { count: number; bytes: Uint8Array }>();
  const result = await conn.run(ledgerRecordsSql('duckdb', 'delta.new_transactions', 'true'));
  for (let chunk = 0; chunk < result.chunkCount; chunk++) {
    const data = result.getChunk(chunk);
    const [ids, counts, blobs] = [0, 1, 2].map((k) => data.getColumnVector(k));
    if (!(blobs instanceof DuckDBBlobVector)) throw new TypeError('ledger records are not a BLOB');
    for (let row = 0; row < data.rowCount; row++) {
      added.set(String(ids?.getItem(row)), {
        count: Number(counts?.getItem(row)),
        bytes: blobs.getItemBytes(row) ?? new Uint8Array(0),
      });
    }
  }
  const removed = new Set(
    (await conn.runAndReadAll('SELECT id FROM delta.removed_users'))
      .getRowObjectsJson()
      .map((row) => String(row.id)),
  );
  return { gone, added, removed };
}

const NONE_GONE: ReadonlySet<string> = new Set();

/** A packed ledger and its rows. */
export interface PackedLedger {
  packed: Uint8Array;
  rows: number;
}

/**
 * Packs `input`; null when a ledger does not hold it: over PACKED_LEDGER_MAX_ROWS, or amounts
 * it cannot hold exactly. The engine answers for that user.
 */
function packHeld(input: LedgerInput): PackedLedger | null {
  if (input.rows > PACKED_LEDGER_MAX_ROWS) return null;
  try {
    return { packed: packLedger(input), rows: input.rows };
  } catch (error) {
    if (error instanceof LedgerTooLargeError) return null;
    throw error;
  }
}

/** A user's ledger from his records (`rows` of them: ledgerRecordsSql) and accounts. */
export function packFromRecords(
  records: Uint8Array,
  rows: number,
  accounts: Uint8Array,
): PackedLedger | null {
  return packHeld(parseLedgerRecords(records, rows, accounts));
}

/**
 * A user's ledger after the change set `delta`: his ledger before it (`before`, packed) with
 * the delta applied, none of his rows read, and his accounts as the change set leaves them
 * (`accounts`: ledgerAccountsSql's JSON text in UTF-8).
 */
export function packChangedLedger(
  delta: LedgerDelta,
  userId: string,
  before: Uint8Array,
  accounts: Uint8Array,
): PackedLedger | null {
  const added = delta.added.get(userId);
  return packHeld(
    changedLedgerInput(
      unpackLedger(before),
      delta.gone.get(userId) ?? NONE_GONE,
      parseLedgerRecords(added?.bytes ?? new Uint8Array(0), added?.count ?? 0, accounts),
    ),
  );
}
