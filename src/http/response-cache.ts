/**
 * A bounded cache of computed answers, keyed by the store's generation. The store is read-only
 * between rebuilds and every publish (build-db, token changes) gives it a new generation, so an
 * answer cached for one generation stays right until the store is swapped; on the first lookup
 * under a new generation everything cached before is dropped.
 *
 * One cache serves every route that caches (spending, recurring streams): one budget. Least
 * recently used entries are evicted past `maxBytes` (sizes are estimated from each answer's
 * length, as its route measures it) or `maxEntries`. Concurrent misses of one key share one
 * computation. Failed computations are not cached. Keys must include everything the answer
 * depends on, the route and the user first: an entry is never shared between routes or users.
 */
export interface ResponseCacheOptions {
  /** 0 turns the cache off: every lookup computes. */
  maxBytes: number;
  maxEntries: number;
}

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

interface Entry {
  value: unknown;
  bytes: number;
}

export class ResponseCache {
  private generation: string | null = null;
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<unknown>>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(private readonly options: ResponseCacheOptions) {}

  get enabled(): boolean {
    return this.options.maxBytes > 0 && this.options.maxEntries > 0;
  }

  /**
   * The answer cached under `key` for `generation`, or computed; `length` is its size in
   * characters (by default its JSON text's: an answer that is text already says it faster).
   */
  async get<T>(
    generation: string,
    key: string,
    compute: () => Promise<T>,
    length: (value: T) => number = (value) => JSON.stringify(value)?.length ?? 0,
  ): Promise<T> {
    if (!this.enabled) return compute();
    if (generation !== this.generation) this.reset(generation);
    const entry = this.entries.get(key);
    if (entry) {
      this.hits++;
      // Re-insert: a Map iterates in insertion order, so the first key is the least recent.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value as T;
    }
    const running = this.pending.get(key);
    if (running) {
      this.hits++;
      return running as Promise<T>;
    }
    this.misses++;
    const computation = compute();
    this.pending.set(key, computation);
    try {
      const value = await computation;
      if (this.generation === generation) this.store(key, value, 2 * length(value));
      return value;
    } finally {
      this.pending.delete(key);
    }
  }

  stats(): ResponseCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  private reset(generation: string): void {
    this.generation = generation;
    this.entries.clear();
    this.pending.clear();
    this.bytes = 0;
  }

  /** `size`: the answer's bytes in memory (UTF-16: about two a character). */
  private store(key: string, value: unknown, size: number): void {
    const bytes = size + 2 * key.length;
    if (bytes > this.options.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.options.maxBytes && this.entries.size <= this.options.maxEntries) {
        break;
      }
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
