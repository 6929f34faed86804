/**
 * The cluster's packed ledgers (ingest/postgres/ledgers.ts): a change set packs again the
 * ledgers of the users it touched and of no one else (the others keep their row version), what
 * it packs is byte for byte what the DuckDB store packs for the same change set and what the
 * rows after it pack (from the ledgers the load copied, and from those a change set wrote: rows
 * replaced, added, removed, moved between users, derived again for their account; a user's
 * accounts changed and none of his transactions, with texts JSON escapes), a removed user's
 * ledger is closed, and the generation before still reads its own ledgers. The server reads a
 * ledger as bytes, with a binary COPY, and spells in only a user id the data contract allows.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGERS_TABLE, LedgerBytes } from '../../../src/contract/ledger.ts';
import { ledgerReads, ledgerSelect } from '../../../src/engines/postgres/ledger.ts';
import { PgPool } from '../../../src/engines/postgres/pool.ts';
import { applyChanges } from '../../../src/ingest/duckdb/apply.ts';
import { buildStore } from '../../../src/ingest/duckdb/build.ts';
import { applyPostgresChanges, buildPostgresStore } from '../../../src/ingest/postgres/build.ts';
import { writeChangeSet } from '../../helpers/changing-store.ts';
import {
  ACCOUNTS_ONLY,
  baseTables,
  CHANGES,
  duckdbLedgers,
  ledgersPackedFromRows,
  MORE_CHANGES,
  ODD_NAME,
  ODD_USER,
} from '../../helpers/ledger-changes.ts';
import { createTestDatabase, RecordingPool } from '../../helpers/postgres.ts';
import { makeTempDir, writeCsvFixture } from '../../helpers/store.ts';

let databaseUrl: string;
let databasePath: string;
let coordinator: pg.Client;
let before: { schema: string; dataSchema: string };
let after: { schema: string };
let duckdbBefore: Map<string, string>;
let duckdbAfter: Map<string, string>;

async function meta(): Promise<{ schema: string; dataSchema: string }> {
  const { rows } = await coordinator.query<{ schema_name: string; data_schema: string }>(
    'SELECT schema_name, data_schema FROM public.store_meta',
  );
  return { schema: rows[0]?.schema_name as string, dataSchema: rows[0]?.data_schema as string };
}

/** Each user's ledger, as hex, in a generation's view. */
async function clusterLedgers(schema: string): Promise<Map<string, string>> {
  const { rows } = await coordinator.query<{ user_id: string; packed: string }>(
    `SELECT user_id, encode(packed, 'hex') AS packed FROM ${schema}.${LEDGERS_TABLE} ORDER BY user_id`,
  );
  return new Map(rows.map((row) => [row.user_id, row.packed]));
}

beforeAll(async () => {
  const sourceDir = makeTempDir('ledger-source');
  await writeCsvFixture(sourceDir, baseTables());
  const changesDir = await writeChangeSet(CHANGES);
  databasePath = join(makeTempDir('ledger-store'), 'finance.duckdb');
  await buildStore({ sourceDir, databasePath });
  duckdbBefore = await duckdbLedgers(databasePath);
  await applyChanges({ changesDir, databasePath });
  duckdbAfter = await duckdbLedgers(databasePath);

  databaseUrl = await createTestDatabase();
  coordinator = new pg.Client({ connectionString: databaseUrl });
  await coordinator.connect();
  await buildPostgresStore({ sourceDir, databaseUrl });
  before = await meta();
  const applied = await applyPostgresChanges({ changesDir, databaseUrl });
  expect(applied.published).toBe(true);
  after = await meta();
}, 120_000);
afterAll(() => coordinator?.end());

describe('the cluster’s ledgers over a change set', () => {
  it('rewrites the ledgers of the users it touched only: the others keep their row version', async () => {
    const { rows } = await coordinator.query<{
      user_id: string;
      gen_from: number;
      gen_to: number | null;
    }>(
      `SELECT user_id, gen_from, gen_to FROM ${before.dataSchema}.${LEDGERS_TABLE}
       ORDER BY user_id, gen_from`,
    );
    expect(rows).toEqual([
      { user_id: 'usr_a', gen_from: 0, gen_to: 1 },
      { user_id: 'usr_a', gen_from: 1, gen_to: null },
      { user_id: 'usr_b', gen_from: 0, gen_to: 1 },
      { user_id: 'usr_b', gen_from: 1, gen_to: null },
      { user_id: 'usr_c', gen_from: 0, gen_to: null },
      { user_id: ODD_USER, gen_from: 0, gen_to: null },
      { user_id: 'usr_gone', gen_from: 0, gen_to: 1 },
      { user_id: 'usr_new', gen_from: 1, gen_to: null },
    ]);
  });

  it('serves byte for byte the ledgers a DuckDB store packs for the same change set', async () => {
    const served = await clusterLedgers(after.schema);
    expect([...served.keys()]).toEqual(['usr_a', 'usr_b', 'usr_c', ODD_USER, 'usr_new']);
    expect(served).toEqual(duckdbAfter);
    expect(served).toEqual(await ledgersPackedFromRows(databasePath));
    // The change set changed what it touched.
    expect(served.get('usr_a')).not.toBe(duckdbBefore.get('usr_a'));
    expect(served.get('usr_c')).toBe(duckdbBefore.get('usr_c'));
  });

  it('leaves the generation before reading its own ledgers, the removed user’s included', async () => {
    expect(before.schema).not.toBe(after.schema);
    expect(await clusterLedgers(before.schema)).toEqual(duckdbBefore);
  });

  it('is read by the server’s point read, as bytes (a binary COPY)', async () => {
    const pool = new RecordingPool(databaseUrl);
    try {
      const reads = ledgerReads(pool, after.schema);
      const packed = await reads.packedLedger('usr_a', 50_000);
      expect(Buffer.from(packed ?? []).toString('hex')).toBe(duckdbAfter.get('usr_a'));
      // In a buffer of its own, as the working set holds it.
      expect(packed?.byteOffset).toBe(0);
      expect(packed?.buffer.byteLength).toBe(packed?.byteLength);
      expect(await reads.packedLedger('usr_a', 39)).toBeNull();
      expect(await reads.packedLedger('usr_gone', 50_000)).toBeNull();
      // An id spelled in escaped: its own ledger, and no one else's for ids that try.
      const odd = await reads.packedLedger(ODD_USER, 50_000);
      expect(Buffer.from(odd ?? []).toString('hex')).toBe(duckdbAfter.get(ODD_USER));
      for (const trying of ["usr_a' OR 'x' = 'x", "usr_a\\' OR true --", 'usr_a\\', "usr_d'"]) {
        expect(await reads.packedLedger(trying, 50_000), trying).toBeNull();
      }
      // Ids the data contract refuses are never spelled into a statement: no ledger.
      const statements = pool.statements.length;
      for (const refused of ['', 'x'.repeat(33), 'usr\u0000a', 'usr_\ud800']) {
        expect(await reads.packedLedger(refused, 50_000)).toBeNull();
        expect(() => ledgerSelect(after.schema, refused, 50_000)).toThrow(RangeError);
      }
      expect(pool.statements).toHaveLength(statements);
      // 32 characters, one of them outside the BMP: allowed.
      expect(await reads.packedLedger(`${'x'.repeat(31)}😀`, 50_000)).toBeNull();
      expect(pool.statements).toHaveLength(statements + 1);
    } finally {
      await pool.close();
    }
  });

  it('copies any bytes untouched, those that are not UTF-8 included', async () => {
    const pool = new PgPool(databaseUrl);
    try {
      const every = Buffer.from(Array.from({ length: 512 }, (_, index) => (index * 7) % 256));
      const read = await pool.copyBytes(`SELECT decode('${every.toString('hex')}', 'hex')`);
      expect(Buffer.from(read ?? []).equals(every)).toBe(true);
      expect(await pool.copyBytes("SELECT ''::bytea")).toEqual(new Uint8Array(0));
      expect(await pool.copyBytes('SELECT NULL::bytea')).toBeNull();
      expect(
        await pool.copyBytes('SELECT packed FROM (SELECT NULL::bytea) t(packed) WHERE false'),
      ).toBeNull();
      // The connection serves the next statement.
      expect(await pool.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await pool.close();
    }
  });

  it('packs what a DuckDB store packs over a change set after it, from the ledgers it wrote', async () => {
    const changesDir = await writeChangeSet(MORE_CHANGES);
    await applyChanges({ changesDir, databasePath });
    const applied = await applyPostgresChanges({ changesDir, databaseUrl });
    expect(applied.published).toBe(true);
    const expected = await duckdbLedgers(databasePath);
    expect(expected.get('usr_b')).not.toBe(duckdbAfter.get('usr_b'));
    expect(await clusterLedgers((await meta()).schema)).toEqual(expected);
    expect(expected).toEqual(await ledgersPackedFromRows(databasePath));
  });

  it('packs again, on both engines alike, the ledger of a user whose accounts alone changed', async () => {
    const beforeAccounts = await duckdbLedgers(databasePath);
    const changesDir = await writeChangeSet(ACCOUNTS_ONLY);
    await applyChanges({ changesDir, databasePath });
    const applied = await applyPostgresChanges({ changesDir, databaseUrl });
    expect(applied.published).toBe(true);
    const expected = await duckdbLedgers(databasePath);
    // DuckDB packed usr_c's again, and only his.
    for (const [user, packed] of beforeAccounts) {
      if (user === 'usr_c') expect(expected.get(user)).not.toBe(packed);
      else expect(expected.get(user), user).toBe(packed);
    }
    const { schema, dataSchema } = await meta();
    expect(await clusterLedgers(schema)).toEqual(expected);
    expect(expected).toEqual(await ledgersPackedFromRows(databasePath));
    // A new version of usr_c's ledger alone, by the third change set.
    const { rows } = await coordinator.query<{ user_id: string }>(
      `SELECT user_id FROM ${dataSchema}.${LEDGERS_TABLE} WHERE gen_from = 3 ORDER BY user_id`,
    );
    expect(rows.map((row) => row.user_id)).toEqual(['usr_c']);
    // His accounts as the store now lists them, the new one's name exactly.
    const pool = new PgPool(databaseUrl);
    try {
      const packed = await ledgerReads(pool, schema).packedLedger('usr_c', 50_000);
      const accounts = JSON.parse(new LedgerBytes(packed as Uint8Array).accountsJson());
      expect(accounts.map((account: { id: string }) => account.id)).toEqual([
        'acc_usr_c_chk',
        'acc_usr_c_inv',
        'acc_usr_c_sav',
      ]);
      expect(accounts[2]).toEqual({
        id: 'acc_usr_c_sav',
        link_id: 'lnk_usr_c',
        name: ODD_NAME,
        mask: '0042',
        type: 'depository',
        subtype: 'savings',
        currency: 'USD',
      });
    } finally {
      await pool.close();
    }
  });
});
