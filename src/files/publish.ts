/**
 * Publishing a store file: writers build a private temp file next to the target and
 * rename() it over the target, so a reader (the server holds the store open read-only)
 * sees either the old or the new file, never a half-written one. Writers (build-db, the
 * token CLI) serialise on a lock file, so a token minted during a build is not lost.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A fresh temp path in the target's directory (same filesystem, so rename is atomic). It names
 * the writing process, so a later writer can tell a leftover of a killed one (removeStaleTemps).
 */
export function tempPathNextTo(target: string, purpose: string): string {
  const suffix = randomBytes(6).toString('hex');
  return join(dirname(target), `.${basename(target)}.${purpose}-${process.pid}-${suffix}.tmp`);
}

/** Leftovers named without a process (by earlier versions) are removed past this age. */
const UNNAMED_LEFTOVER_AGE_MS = 24 * 3_600_000;

/**
 * Removes what a killed writer left next to `target` (its temp database, WAL and spill
 * folder): a temp path whose process no longer runs. Another writer's live files are kept,
 * and so is anything not named like a temp path of this target. Returns what was removed.
 */
export async function removeStaleTemps(
  target: string,
): Promise<{ paths: string[]; bytes: number }> {
  const dir = dirname(target);
  const prefix = `.${basename(target)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  let bytes = 0;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^[a-z]+-(?:(\d+)-)?[0-9a-f]{12}\.tmp(?:\.wal|\.tmp)?$/.exec(
      name.slice(prefix.length),
    );
    if (!match) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) continue;
    const pid = match[1] === undefined ? undefined : Number(match[1]);
    const stale =
      pid === undefined
        ? Date.now() - info.mtimeMs > UNNAMED_LEFTOVER_AGE_MS
        : pid !== process.pid && !isAlive(pid);
    if (!stale) continue;
    bytes += info.isDirectory() ? await folderBytes(path) : info.size;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return { paths: removed, bytes };
}

async function folderBytes(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true }).catch(() => [])) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) total += await folderBytes(child);
    else total += (await stat(child).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * A scratch folder in the OS temp folder named after this process (`<prefix><pid>-XXXXXX`),
 * after removing the ones of the same prefix whose process is gone (a killed load).
 */
export async function scratchFolder(prefix: string): Promise<string> {
  const root = tmpdir();
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const match = new RegExp(`^${prefix}(\\d+)-[A-Za-z0-9]{6}$`).exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !isAlive(pid)) {
      await rm(join(root, name), { recursive: true, force: true });
    }
  }
  return mkdtemp(join(root, `${prefix}${process.pid}-`));
}

/** Removes a DuckDB file with its WAL and spill directory; missing files are fine. */
export async function removeDatabaseFiles(path: string): Promise<void> {
  await Promise.all(
    [path, `${path}.wal`, `${path}.tmp`].map((file) => rm(file, { recursive: true, force: true })),
  );
}

export async function publishDatabaseFile(builtPath: string, target: string): Promise<void> {
  await rename(builtPath, target);
}

const LOCK_WAIT_MS = 30_000;

/** The process `pid` runs (maybe as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `work` holding `<target>.lock`; a lock left by a dead process is taken over. */
export async function withWriteLock<T>(target: string, work: () => Promise<T>): Promise<T> {
  const lockPath = `${target}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(lockPath, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && !isAlive(holder)) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`another process (pid ${holder}) is writing ${target}: lock ${lockPath}`);
      }
      await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockPath, { force: true });
  }
}
