/**
 * Every DuckDB instance spills into a folder of its own under the spill base
 * (src/files/spill-folder.ts): two instances spilling into one folder wrote over each other's
 * spill files, and DuckDB crashed (SIGSEGV) or answered garbage under a small memory limit.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDbPool } from '../../../src/engines/duckdb/pool.ts';
import { type DatabaseFile, openDatabaseFile } from '../../../src/files/database-file.ts';
import { DEFAULT_SPILL_BASE } from '../../../src/files/spill-folder.ts';
import { REPO_ROOT } from '../../helpers/server.ts';
import { buildDemoStore, buildHeavyStore, makeTempDir } from '../../helpers/store.ts';

/** A sort of half a million hashes: past a 24 MB memory limit (300,000 spill already). */
const SPILLING_SQL =
  'SELECT count(*) AS n FROM (SELECT md5(i::VARCHAR) AS s FROM range(500000) t(i) ORDER BY s)';
const FOLDER_SQL = "SELECT current_setting('temp_directory') AS folder";
const OWN_FOLDER = /^\d+-[0-9a-f]{12}$/;

async function folderOf(pool: DuckDbPool): Promise<string> {
  const [row] = await pool.query<{ folder: string }>(FOLDER_SQL);
  return row?.folder as string;
}

async function fileFolderOf(file: DatabaseFile): Promise<string> {
  const [row] = (await file.conn.runAndReadAll(FOLDER_SQL)).getRowObjectsJson();
  return String(row?.folder);
}

/** `folder` is one of this process's own under `base`. */
function expectOwnFolder(folder: string, base: string): void {
  expect(folder.startsWith(`${base}/`), folder).toBe(true);
  const name = folder.slice(base.length + 1);
  expect(name).toMatch(OWN_FOLDER);
  expect(name.split('-')[0]).toBe(String(process.pid));
}

let store: string;
beforeAll(async () => {
  store = await buildDemoStore();
});

describe('a pool', () => {
  it('two pools on one base spill into folders of their own, each removed as its pool closes', async () => {
    const base = makeTempDir('spill-base');
    const pools = await Promise.all(
      [1, 2].map(() =>
        DuckDbPool.open(store, { poolSize: 1, memoryLimit: 24e6, tempDirectory: base }),
      ),
    );
    const folders = await Promise.all(pools.map(folderOf));
    expect(new Set(folders).size).toBe(2);
    for (const folder of folders) {
      expectOwnFolder(folder, base);
      // Made by DuckDB as it first spills, not before.
      expect(existsSync(folder)).toBe(false);
    }
    await pools[0]?.query(SPILLING_SQL);
    expect(existsSync(folders[0] as string)).toBe(true);
    await Promise.all(pools.map((pool) => pool.close()));
    expect(await readdir(base)).toEqual([]);
  });

  it("the first open sweeps dead processes' spill folders, and nothing else", async () => {
    const base = makeTempDir('spill-base');
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const leftovers = {
      dead: `${dead}-0123456789ab`,
      // Named with this process's id before it named any: a dead process's whose id came back.
      samePid: `${process.pid}-0123456789ab`,
      live: `${process.ppid}-0123456789ab`,
      other: `${dead}-not-ours`,
    };
    for (const name of Object.values(leftovers)) {
      await mkdir(join(base, name));
      await writeFile(join(base, name, 'duckdb_temp_storage_S32K-0.tmp'), 'x');
    }
    await writeFile(join(base, 'duckdb_temp_block-1.block'), 'x');
    const pool = await DuckDbPool.open(store, { poolSize: 1, tempDirectory: base });
    await pool.close();
    expect((await readdir(base)).sort()).toEqual(
      [leftovers.live, leftovers.other, 'duckdb_temp_block-1.block'].sort(),
    );
  });

  it('makes the base when it is missing (DuckDB makes the last folder only)', async () => {
    const base = join(makeTempDir('spill-base'), 'not', 'yet');
    const pool = await DuckDbPool.open(store, {
      poolSize: 1,
      memoryLimit: 24e6,
      tempDirectory: base,
    });
    try {
      await expect(pool.query(SPILLING_SQL)).resolves.toHaveLength(1);
    } finally {
      await pool.close();
    }
  });
});

describe('a file opened in memory (the token file, ingest)', () => {
  it('read-only: spills into a folder of its own under the base, not `.tmp` in the working folder', async () => {
    const base = makeTempDir('spill-base');
    const files = await Promise.all([
      openDatabaseFile(store, 'store', { readOnly: true, spillBase: base }),
      openDatabaseFile(store, 'store', { readOnly: true }),
    ]);
    const [given, byDefault] = await Promise.all(files.map(fileFolderOf));
    for (const file of files) file.close();
    expectOwnFolder(given as string, base);
    expectOwnFolder(byDefault as string, DEFAULT_SPILL_BASE);
  });

  it('writable: spills next to its own file (every writer writes a temp path of its own)', async () => {
    const path = join(makeTempDir('writable'), '.finance.duckdb.build-1-0123456789ab.tmp');
    const file = await openDatabaseFile(path, 'build');
    const folder = await fileFolderOf(file);
    file.close();
    expect(folder).toBe(`${path}.tmp`);
  });
});

describe('two pools spilling at once under 24 MB', () => {
  let heavy: { path: string; heavyUserId: string };
  beforeAll(async () => {
    heavy = await buildHeavyStore(40_000);
  }, 60_000);

  it('the page and ledger reads answer true or out of memory, the process survives', async () => {
    const base = makeTempDir('spill-base');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/helpers/spill-reads.ts',
        heavy.path,
        heavy.heavyUserId,
        base,
        '6000',
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exit = await new Promise<{ code: number | null; signal: string | null }>((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
    expect(exit, output).toEqual({ code: 0, signal: null });
    const seen = JSON.parse(output.trim().split('\n').at(-1) as string) as {
      ok: number;
      spilling: string[];
      atOnce: number;
    };
    // Both pools spilled, each into its own folder, at once: what crashed DuckDB.
    expect(seen.spilling).toHaveLength(2);
    expect(seen.atOnce).toBeGreaterThan(0);
    expect(seen.ok).toBeGreaterThan(0);
    expect(await readdir(base)).toEqual([]);
  }, 60_000);
});
