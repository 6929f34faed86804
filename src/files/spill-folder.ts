/**
 * A spill folder of its own for every DuckDB instance. DuckDB 1.5.6 names its spill files by
 * size and number alone (`duckdb_temp_storage_S64K-0.tmp`, `duckdb_temp_block-<id>.block`), so
 * two instances spilling into one folder write over each other's files and read back each
 * other's blocks (a SIGSEGV under a small memory limit), and one that closes deletes every
 * `duckdb_temp_*` file there (duckdb/duckdb#15173). Each instance spills into
 * `<base>/<pid>-<12 hex>` instead: DuckDB creates it on the first spill and removes it when the
 * instance closes (and so does removeSpillFolder); what a dead process left is swept before a
 * process names its first folder under a base.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from './publish.ts';

/** DUCKDB_TEMP_DIRECTORY's default. */
export const DEFAULT_SPILL_BASE = join(tmpdir(), 'finance-api-duckdb');

const FOLDER_NAME = /^(\d+)-[0-9a-f]{12}$/;

/** Each base's sweep, run once per process. */
const sweeps = new Map<string, Promise<void>>();

/**
 * A new instance's own spill folder under `base`. The folder itself is not made (DuckDB makes
 * it on the first spill, so an instance that never spills leaves nothing), but `base` is, with
 * its parents, every time: DuckDB makes the last folder of its temp_directory only, and a base
 * left empty in the OS temp folder may have been cleaned away since the last time. A base that
 * cannot be made fails at the first spill instead, as DuckDB's own error (a 503).
 */
export async function newSpillFolder(base: string = DEFAULT_SPILL_BASE): Promise<string> {
  await mkdir(base, { recursive: true }).catch(() => {});
  let sweep = sweeps.get(base);
  if (!sweep) {
    sweep = sweepSpillFolders(base);
    sweeps.set(base, sweep);
  }
  await sweep;
  return join(base, `${process.pid}-${randomBytes(6).toString('hex')}`);
}

/** Removes an instance's spill folder, once the instance is closed; none is fine. */
export function removeSpillFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

/**
 * Removes the spill folders under `base` of processes that no longer run. It runs before this
 * process names a folder there, so one named with this process's id is a dead process's whose
 * id came round again (a restarted container's server is the same pid). Anything not named
 * like a spill folder is left alone.
 */
async function sweepSpillFolders(base: string): Promise<void> {
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const match = FOLDER_NAME.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && isAlive(pid)) continue;
    await rm(join(base, name), { recursive: true, force: true }).catch(() => {});
  }
}
