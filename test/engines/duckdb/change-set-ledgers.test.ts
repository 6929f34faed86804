/**
 * A DuckDB store's packed ledgers over change sets (ingest/duckdb/ledgers.ts): the users a
 * change set touched are packed again, a new one's included; a removed one's is gone; an
 * untouched one's stays as it was. Every ledger is byte for byte what a build packs from the
 * rows after the change set: rows replaced, added, removed, moved between users, derived again
 * for their account, and a user's accounts changed without any of his transactions.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChanges } from '../../../src/ingest/duckdb/apply.ts';
import { buildStore } from '../../../src/ingest/duckdb/build.ts';
import { type ChangeSetFiles, writeChangeSet } from '../../helpers/changing-store.ts';
import {
  ACCOUNTS_ONLY,
  baseTables,
  CHANGES,
  duckdbLedgers,
  ledgersPackedFromRows,
  MORE_CHANGES,
  ODD_USER,
} from '../../helpers/ledger-changes.ts';
import { makeTempDir, writeCsvFixture } from '../../helpers/store.ts';

describe('a DuckDB store’s ledgers over change sets', () => {
  it('are packed again for the users a change set touched, byte for byte what the rows after it pack', async () => {
    const sourceDir = makeTempDir('ledger-source');
    await writeCsvFixture(sourceDir, baseTables());
    const databasePath = join(makeTempDir('ledger-store'), 'finance.duckdb');
    await buildStore({ sourceDir, databasePath });
    /** Applies `files`; returns the ledger lines of its progress. */
    const apply = async (files: ChangeSetFiles) => {
      const lines: string[] = [];
      const applied = await applyChanges({
        changesDir: await writeChangeSet(files),
        databasePath,
        onProgress: (line) => lines.push(line.trim()),
      });
      expect(applied.published).toBe(true);
      return lines.filter((line) => line.startsWith('ledgers:'));
    };

    const built = await duckdbLedgers(databasePath);
    // Read a few users at a time (each batch read while the one before packs), the same bytes.
    expect(await ledgersPackedFromRows(databasePath, 50)).toEqual(built);
    // usr_a (a row replaced), usr_b (a row added) and usr_new (added); usr_gone removed.
    expect(await apply(CHANGES)).toEqual([
      expect.stringMatching(/^ledgers: 3 packed, 0 left to the engine/),
    ]);
    const first = await duckdbLedgers(databasePath);
    expect([...first.keys()]).toEqual(['usr_a', 'usr_b', 'usr_c', ODD_USER, 'usr_new']);
    expect(first).toEqual(await ledgersPackedFromRows(databasePath));
    expect(first.get('usr_a')).not.toBe(built.get('usr_a'));
    expect(first.get('usr_b')).not.toBe(built.get('usr_b'));
    expect(first.get('usr_c')).toBe(built.get('usr_c'));

    // On ledgers a change set wrote: a row moved from usr_c to usr_b, usr_a's account derived
    // again, usr_new's first row.
    expect(await apply(MORE_CHANGES)).toEqual([
      expect.stringMatching(/^ledgers: 4 packed, 0 left to the engine/),
    ]);
    const second = await duckdbLedgers(databasePath);
    expect(second).toEqual(await ledgersPackedFromRows(databasePath));
    for (const user of ['usr_a', 'usr_b', 'usr_c', 'usr_new']) {
      expect(second.get(user), user).not.toBe(first.get(user));
    }
    expect(second.get(ODD_USER)).toBe(first.get(ODD_USER));

    // Accounts alone: usr_c's ledger, which holds his accounts, and no one else's.
    await apply(ACCOUNTS_ONLY);
    const third = await duckdbLedgers(databasePath);
    expect(third).toEqual(await ledgersPackedFromRows(databasePath));
    for (const [user, packed] of second) {
      if (user === 'usr_c') expect(third.get(user)).not.toBe(packed);
      else expect(third.get(user), user).toBe(packed);
    }
  }, 60_000);
});
