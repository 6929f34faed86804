/**
 * Publishing a store file: writers build a private temp file next to the target and
 * rename() it over the target, so a reader (the server holds the store open read-only)
 * sees either the old or the new file, never a half-written one. Writers (build-db, the
 * token CLI) serialise on a lock file, so a token minted during a build is not lost.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A fresh temp path in the target's directory (same filesystem, so rename is atomic). */
export function tempPathNextTo(target: string, purpose: string): string {
  const suffix = randomBytes(6).toString('hex');
  return join(dirname(target), `.${basename(target)}.${purpose}-${suffix}.tmp`);
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

function isAlive(pid: number): boolean {
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
