/**
 * Hot swap of the store, whatever the engine. A new generation is published (a new file
 * renamed into place, a new version row); the engine's watcher (or SIGHUP) calls `reload`,
 * which opens a port on it and switches new requests to it. A request leases the port it
 * started on and keeps it for all its queries, so in-flight requests finish on the old
 * generation, whose port is closed once the last of them is done. A generation that cannot be
 * opened or does not answer is refused and the current one keeps serving. The generation
 * being served is reopened when it is published again (or on SIGHUP) while it fails, so a
 * damaged file is replaced by a good copy of the same data; the engine may refuse to reopen
 * what is published (a DuckDB file found damaged and read whole without passing). A new port
 * serves at once and is warmed while it serves (warmBeside).
 */
import { ANONYMOUS_CLIENT, runAsClient } from './client-context.ts';
import type { ReadPort } from './read-port.ts';

/** One request's hold on the port it started with; release exactly once (extra calls are ignored). */
export interface PortLease {
  readonly port: ReadPort;
  release(): void;
}

/**
 * Told once a new generation serves: a lease on it (the listener releases it when done) and
 * the generation it replaced (retired: to read its place in the lineage, never to query). The
 * replaced port closes once the promise a listener returns settles: closing a DuckDB instance
 * holds the event loop (0.7 s for the 1.3 GB benchmark store on a busy machine), which would
 * otherwise come before what the listener writes.
 */
export type ServeListener = (
  served: PortLease,
  previous: Pick<ReadPort, 'generation' | 'sync'>,
) => void | Promise<void>;

/** Where requests get their port: a fixed one, or a swappable one. */
export interface PortSource {
  /** The port new requests get. */
  readonly current: ReadPort;
  lease(): PortLease;
  /** Calls `listener` whenever a new generation starts to serve (never, for a fixed port). */
  onServe?(listener: ServeListener): () => void;
}

export type ReloadOutcome = 'swapped' | 'unchanged' | 'refused';

export interface SwapLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface SwappablePortOptions {
  /**
   * Opens a port on the generation currently published (checked by the engine); undefined
   * when the engine refuses what is published and has said why (a reload then counts as
   * refused and logs nothing).
   */
  open: () => Promise<ReadPort | undefined>;
  log?: SwapLogger;
  /** After every reload attempt (metrics). */
  onReload?: (outcome: ReloadOutcome, generation: string) => void;
}

interface Handle {
  readonly port: ReadPort;
  /** Leases (requests) still using this port. */
  users: number;
  retired: boolean;
  closed: boolean;
}

/** A new generation is warmed with this many of the users asked lately at most. */
const WARM_USERS_MAX = 1_000;

const silent: SwapLogger = { info() {}, warn() {}, error() {} };

const answers = (port: ReadPort) =>
  port.ping().then(
    () => true,
    () => false,
  );

/** A port that never changes, as a source. */
export function fixedSource(port: ReadPort): PortSource {
  const lease: PortLease = { port, release() {} };
  return { current: port, lease: () => lease };
}

export function isPortSource(store: ReadPort | PortSource): store is PortSource {
  return typeof (store as { lease?: unknown }).lease === 'function';
}

export class SwappablePort implements PortSource {
  private handle: Handle;
  private readonly log: SwapLogger;
  private reloading: Promise<ReloadOutcome> = Promise.resolve('unchanged');
  private closed = false;
  private readonly serveListeners = new Set<ServeListener>();

  constructor(
    first: ReadPort,
    private readonly options: SwappablePortOptions,
  ) {
    this.handle = { port: first, users: 0, retired: false, closed: false };
    this.log = options.log ?? silent;
  }

  get current(): ReadPort {
    return this.handle.port;
  }

  /** Pins the current port until `release`. */
  lease(): PortLease {
    const handle = this.handle;
    handle.users++;
    let released = false;
    return {
      port: handle.port,
      release: () => {
        if (released) return;
        released = true;
        handle.users--;
        this.maybeClose(handle);
      },
    };
  }

  /**
   * Opens the published generation and, when it is a different one that answers (or the same
   * one while the current port fails), makes it current. Reloads run one at a time; a failure
   * leaves the current port serving.
   */
  reload(reason: string): Promise<ReloadOutcome> {
    this.reloading = this.reloading.then(() => this.reloadNow(reason));
    return this.reloading;
  }

  onServe(listener: ServeListener): () => void {
    this.serveListeners.add(listener);
    return () => this.serveListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.reloading;
    const handle = this.handle;
    handle.retired = true;
    handle.closed = true;
    await handle.port.close();
  }

  private async reloadNow(reason: string): Promise<ReloadOutcome> {
    if (this.closed) return 'unchanged';
    const previous = this.handle.port.generation;
    let next: ReadPort | undefined;
    try {
      next = await this.options.open();
    } catch (error) {
      return this.refused(reason, error);
    }
    if (next === undefined) {
      this.options.onReload?.('refused', previous);
      return 'refused';
    }
    try {
      // The same generation again is news only when the current port fails (its file damaged,
      // say): then the one just opened replaces it, whatever its generation.
      if (this.closed || (next.generation === previous && (await answers(this.handle.port)))) {
        await next.close();
        this.options.onReload?.('unchanged', previous);
        return 'unchanged';
      }
      await next.ping();
    } catch (error) {
      await next.close().catch(() => {});
      return this.refused(reason, error);
    }
    if (this.closed) {
      await next.close().catch(() => {});
      return 'unchanged';
    }
    const old = this.handle;
    // Asked before the old port may close (its memory goes with it).
    const users = old.port.heldUsers?.(WARM_USERS_MAX) ?? [];
    const handle: Handle = { port: next, users: 0, retired: false, closed: false };
    this.handle = handle;
    old.retired = true;
    this.log.info(
      { reason, from: previous, to: next.generation },
      'store swapped: new requests use the new store',
    );
    this.options.onReload?.('swapped', next.generation);
    this.tell(old);
    void this.warmBeside(handle, users);
    return 'swapped';
  }

  /**
   * Tells the listeners that a new generation serves (once new requests read it: whatever they
   * are told of it they can read back); the replaced port closes when they are done with it.
   */
  private tell(old: Handle): void {
    old.users++;
    const done: Promise<void>[] = [];
    for (const listener of this.serveListeners) {
      try {
        const told = listener(this.lease(), old.port);
        if (told) done.push(told);
      } catch (error) {
        this.log.warn({ error: String(error) }, 'a listener of the swap failed');
      }
    }
    const release = () => {
      old.users--;
      this.maybeClose(old);
    };
    if (done.length === 0) release();
    // A turn of the event loop later: what the listeners wrote reaches the sockets first.
    else void Promise.allSettled(done).then(() => setImmediate(release));
  }

  /**
   * Reads into a port that serves already the ledgers of `users` (those the port before it
   * answered lately, the most recent first), one at a time and only while the store has nothing
   * else to do, until done or the port is retired: a publish then does not send every active
   * user's first request to the store at once, yet the swap never waits for it (warming first
   * delayed every publish by its 2 s bound, and kept a damaged store's 503s going as long) and
   * no request waits behind it.
   */
  private async warmBeside(handle: Handle, users: readonly string[]): Promise<void> {
    const { port } = handle;
    const warm = port.warm;
    if (users.length === 0 || !warm) return;
    const started = performance.now();
    // A reload may run as a request's client (one that found the store damaged): the warming
    // is none of that client's work.
    const warmedUsers = await runAsClient(ANONYMOUS_CLIENT, () =>
      warm(users, () => handle.retired),
    );
    this.log.info(
      {
        generation: port.generation,
        warmedUsers,
        warmedMs: Math.round(performance.now() - started),
      },
      'store warmed: the users asked lately are read into memory',
    );
  }

  private refused(reason: string, error: unknown): ReloadOutcome {
    const message = error instanceof Error ? error.message : String(error);
    this.log.error(
      { reason, error: message, generation: this.handle.port.generation },
      'new store refused: requests stay on the current store',
    );
    this.options.onReload?.('refused', this.handle.port.generation);
    return 'refused';
  }

  private maybeClose(handle: Handle): void {
    if (!handle.retired || handle.users > 0 || handle.closed) return;
    handle.closed = true;
    handle.port.close().then(
      () => this.log.info({ generation: handle.port.generation }, 'old store closed'),
      (error: unknown) =>
        this.log.warn(
          { error: String(error), generation: handle.port.generation },
          'old store close failed',
        ),
    );
  }
}
