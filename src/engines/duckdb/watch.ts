/**
 * The store file at DATABASE_PATH over time: the files published there (a watch), and how a
 * file found damaged is opened again (docs/operations.md, "What a damaged file means here").
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { type FileIdentity, fileAt, sameFile, sameInode } from './pool.ts';
import type { DuckDbPort } from './port.ts';

export interface StoreFileEvents {
  /** Another file (inode) is at the path: one renamed into place, as build-db publishes. */
  onPublish(): void;
  /** The same file was written in place (its size or time changed): a damage, never a publish. */
  onChangedInPlace(): void;
}

/**
 * Tells `events` (debounced) what changed at `path`: writers rename into the directory, so
 * the directory is watched, filtered by name, and the file's identity says what happened.
 */
export function watchStoreFile(
  path: string,
  events: StoreFileEvents,
  debounceMs = 500,
): { close(): void } {
  const target = resolve(path);
  const name = basename(target);
  let seen = fileAt(target);
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    const now = fileAt(target);
    if (!now) return; // removed: nothing to open until a file is there
    const before = seen;
    seen = now;
    if (!before || !sameInode(now, before)) events.onPublish();
    else if (!sameFile(now, before)) events.onChangedInPlace();
  };
  const watcher: FSWatcher = watch(dirname(target), (_event, filename) => {
    if (filename !== null && filename.toString() !== name) return;
    clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
    timer.unref();
  });
  watcher.unref();
  watcher.on('error', () => {});
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}

/**
 * Opens the store file for a swap, and decides what happens to a file a pool found damaged.
 * Reopening it as it is would loop: its checks read nothing corrupt, it serves until a query
 * reads a bad block, is found damaged again, reopened again. So the same file (inode) is
 * reopened once and read whole (DuckDbPool.verify) before it serves again: a file that is fine
 * (the instance failed on it, or only its time changed) serves; one that fails is refused, not
 * opened again, until another file is published at the path or SIGHUP. A file passes at most
 * once: found damaged again, unchanged, it is refused without being reopened. So a damaged file
 * is opened twice, not once per failed query.
 */
export class DamagedFileRecovery {
  /** The file (as a pool opened it) found damaged, until it passes or another file is opened. */
  private suspect: FileIdentity | undefined;
  /** The suspect was refused: it is not opened again. */
  private refused = false;
  /** The file as it was when it last passed: not read whole twice. */
  private passed: FileIdentity | undefined;
  /** SIGHUP came: the next open forgets the refusal, and reads the file whole again. */
  private pardoned = false;

  constructor(
    private readonly path: string,
    private readonly openPort: () => Promise<DuckDbPort>,
    private readonly log: { error(object: object, message: string): void },
  ) {}

  /** A pool found its file damaged (`file`: as the pool opened it). */
  damaged(file: FileIdentity | undefined): void {
    if (!file || (this.suspect && sameInode(file, this.suspect))) return;
    this.suspect = file;
    this.refused = false;
  }

  /** SIGHUP: the file at the path may be opened again. */
  pardon(): void {
    this.pardoned = true;
  }

  /**
   * A port on the file at the path: opened as it is, or, when it is the file found damaged,
   * after it read whole; undefined when that file is refused (said once, when refused).
   */
  async open(): Promise<DuckDbPort | undefined> {
    if (this.pardoned) {
      this.pardoned = false;
      this.refused = false;
      this.passed = undefined;
    }
    const file = fileAt(this.path);
    if (!this.suspect || !file || !sameInode(file, this.suspect)) {
      // Not the damaged file: one published since (or none), opened as any is.
      this.suspect = undefined;
      this.refused = false;
      return this.openPort();
    }
    if (this.refused) return undefined;
    if (this.passed && sameFile(file, this.passed)) {
      return this.refuse('found damaged again, unchanged, after it read whole');
    }
    const started = performance.now();
    let port: DuckDbPort | undefined;
    try {
      port = await this.openPort();
      await port.pool.verify();
    } catch (error) {
      await port?.close().catch(() => {});
      return this.refuse(error instanceof Error ? error.message : String(error), {
        readMs: Math.round(performance.now() - started),
      });
    }
    this.suspect = undefined;
    this.passed = port.pool.file;
    return port;
  }

  private refuse(reason: string, details: object = {}): undefined {
    this.refused = true;
    this.log.error(
      { reason, path: this.path, ...details },
      'store file refused: answering 503 until another file is published there (or SIGHUP)',
    );
    return undefined;
  }
}
