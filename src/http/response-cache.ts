/**
 * A bounded cache of computed answers, keyed by the store's generation. The store is read-only
 * between rebuilds and every publish (build-db, token changes) gives it a new generation, so an
 * answer cached for one generation stays right until the store is swapped; on the first lookup
 * under a new generation everything cached before is dropped.
 *
 * Least recently used entries are evicted past `maxBytes` (sizes are estimated from the
 * answer's JSON length) or `maxEntries`. Concurrent misses of one key share one computation.
 * Failed computations are not cached. Keys must include everything the answer depends on,
 * the user first: an entry is never shared between users unless the key says so.
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

interface Entry<T> {
  value: T;
  bytes: number;
}

export class ResponseCache<T> {
  private generation: string | null = null;
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Promise<T>>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  /**
   * `length` is the answer's size in characters, by default its JSON text's (an answer that is
   * text already says it faster than JSON.stringify re-escaping it).
   */
  constructor(
    private readonly options: ResponseCacheOptions,
    private readonly length: (value: T) => number = (value) => JSON.stringify(value)?.length ?? 0,
  ) {}

  get enabled(): boolean {
    return this.options.maxBytes > 0 && this.options.maxEntries > 0;
  }

  async get(generation: string, key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.enabled) return compute();
    if (generation !== this.generation) this.reset(generation);
    const entry = this.entries.get(key);
    if (entry) {
      this.hits++;
      // Re-insert: a Map iterates in insertion order, so the first key is the least recent.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    const running = this.pending.get(key);
    if (running) {
      this.hits++;
      return running;
    }
    this.misses++;
    const computation = compute();
    this.pending.set(key, computation);
    try {
      const value = await computation;
      if (this.generation === generation) this.store(key, value);
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

  private store(key: string, value: T): void {
    // UTF-16 in memory: about two bytes per character, plus the key.
    const bytes = 2 * this.length(value) + 2 * key.length;
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

const MIB = 1024 * 1024;

/** The cache's bounds from the validated settings RESPONSE_CACHE_MB and RESPONSE_CACHE_ENTRIES. */
export function responseCacheOptions(config: {
  RESPONSE_CACHE_MB: number;
  RESPONSE_CACHE_ENTRIES: number;
}): ResponseCacheOptions {
  return { maxBytes: config.RESPONSE_CACHE_MB * MIB, maxEntries: config.RESPONSE_CACHE_ENTRIES };
}
