/**
 * Hot swap of the store. Writers publish a new file at the store's path by atomic rename
 * (build-publish.ts); the server notices (directory watch, or SIGHUP), opens the new file,
 * checks it, and switches new requests to it. A request keeps the store it started on for
 * all of its queries (an AsyncLocalStorage lease), so in-flight requests finish on the old
 * store, which is closed once the last of them is done. A file that cannot be opened or
 * checked is refused and the old store keeps serving.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { TABLE_NAMES } from '../build/schema.ts';
import { type Row, type SqlParam, type Store, StoreUnavailableError } from './store.ts';

interface Handle {
  readonly store: Store;
  /** Leases (requests) and queries still using this store. */
  users: number;
  retired: boolean;
  closed: boolean;
}

export type ReloadOutcome = 'swapped' | 'unchanged' | 'refused';

export interface SwapLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** One request's hold on the store it started with; release exactly once (extra calls are ignored). */
export interface StoreLease {
  run<T>(fn: () => T): T;
  release(): void;
}

export interface SwappableStoreOptions {
  /** Opens the file currently published at the path. */
  open: () => Promise<Store>;
  log?: SwapLogger;
  /** After every reload attempt (metrics). */
  onReload?: (outcome: ReloadOutcome, generation: string) => void;
}

const silent: SwapLogger = { info() {}, warn() {}, error() {} };

/** Checks a freshly opened store before it serves: it answers, and every table is there. */
export async function checkStore(store: Store): Promise<void> {
  await store.ping();
  for (const table of TABLE_NAMES) await store.query(`SELECT * FROM ${table} LIMIT 0`);
}

export class SwappableStore implements Store {
  private current: Handle;
  private readonly pinned = new AsyncLocalStorage<Handle>();
  private readonly log: SwapLogger;
  private reloading: Promise<ReloadOutcome> = Promise.resolve('unchanged');
  private closed = false;

  constructor(
    first: Store,
    private readonly options: SwappableStoreOptions,
  ) {
    this.current = { store: first, users: 0, retired: false, closed: false };
    this.log = options.log ?? silent;
  }

  /** The generation this request sees: the pinned store's, else the current one's. */
  get generation(): string {
    return this.handle().store.generation;
  }

  async query<T extends Row = Row>(sql: string, params?: readonly SqlParam[]): Promise<T[]> {
    const handle = this.handle();
    handle.users++;
    try {
      return await handle.store.query<T>(sql, params);
    } finally {
      this.unuse(handle);
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1 AS ok');
  }

  /** Pins the current store for everything `run` starts, until `release`. */
  lease(): StoreLease {
    const handle = this.current;
    handle.users++;
    let released = false;
    return {
      run: (fn) => this.pinned.run(handle, fn),
      release: () => {
        if (released) return;
        released = true;
        this.unuse(handle);
      },
    };
  }

  /**
   * Opens the published file and, when it is a different generation that answers, makes it
   * current. Reloads run one at a time; a failure leaves the current store serving.
   */
  reload(reason: string): Promise<ReloadOutcome> {
    this.reloading = this.reloading.then(() => this.reloadNow(reason));
    return this.reloading;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.reloading;
    const handle = this.current;
    handle.retired = true;
    handle.closed = true;
    await handle.store.close();
  }

  private async reloadNow(reason: string): Promise<ReloadOutcome> {
    if (this.closed) return 'unchanged';
    const previous = this.current.store.generation;
    let next: Store;
    try {
      next = await this.options.open();
    } catch (error) {
      return this.refused(reason, error);
    }
    try {
      if (next.generation === previous || this.closed) {
        await next.close();
        this.options.onReload?.('unchanged', previous);
        return 'unchanged';
      }
      await checkStore(next);
    } catch (error) {
      await next.close().catch(() => {});
      return this.refused(reason, error);
    }
    const old = this.current;
    this.current = { store: next, users: 0, retired: false, closed: false };
    old.retired = true;
    this.maybeClose(old);
    this.log.info(
      { reason, from: previous, to: next.generation },
      'store swapped: new requests use the new store',
    );
    this.options.onReload?.('swapped', next.generation);
    return 'swapped';
  }

  private refused(reason: string, error: unknown): ReloadOutcome {
    const message = error instanceof Error ? error.message : String(error);
    this.log.error(
      { reason, error: message, generation: this.current.store.generation },
      'new store refused: the current store keeps serving',
    );
    this.options.onReload?.('refused', this.current.store.generation);
    return 'refused';
  }

  private handle(): Handle {
    if (this.closed) throw new StoreUnavailableError('store is closed');
    const pinned = this.pinned.getStore();
    return pinned && !pinned.closed ? pinned : this.current;
  }

  private unuse(handle: Handle): void {
    handle.users--;
    this.maybeClose(handle);
  }

  private maybeClose(handle: Handle): void {
    if (!handle.retired || handle.users > 0 || handle.closed) return;
    handle.closed = true;
    handle.store.close().then(
      () => this.log.info({ generation: handle.store.generation }, 'old store closed'),
      (error: unknown) =>
        this.log.warn(
          { error: String(error), generation: handle.store.generation },
          'old store close failed',
        ),
    );
  }
}

/** A store that can pin itself per request (the store plugin uses it when present). */
export function isLeasable(store: Store): store is Store & { lease(): StoreLease } {
  return typeof (store as { lease?: unknown }).lease === 'function';
}

/**
 * Calls `onPublish` (debounced) when a new file appears at `path`: writers rename into the
 * directory, so the directory is watched, filtered by name and by file identity.
 */
export function watchStoreFile(
  path: string,
  onPublish: () => void,
  debounceMs = 500,
): { close(): void } {
  const target = resolve(path);
  const name = basename(target);
  let identity = '';
  let timer: NodeJS.Timeout | undefined;
  const identify = async () => {
    const info = await stat(target).catch(() => undefined);
    return info ? `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}` : '';
  };
  void identify().then((first) => {
    identity ||= first;
  });
  const fire = async () => {
    const now = await identify();
    if (!now || now === identity) return;
    identity = now;
    onPublish();
  };
  const watcher: FSWatcher = watch(dirname(target), (_event, filename) => {
    if (filename !== null && filename.toString() !== name) return;
    clearTimeout(timer);
    timer = setTimeout(() => void fire(), debounceMs);
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
