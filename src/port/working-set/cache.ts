/**
 * The working set's memory: the ledgers of the users asked lately, bounded by bytes, the least
 * recently used out first, shared by the generations being served. A ledger belongs to one
 * generation (its key names it), so a request is only ever answered from its own generation's
 * data; a generation's ledgers go when its port closes. A ledger is read once per user and
 * generation however many requests ask at once (they share the read); a failed read is not
 * kept, so the next request reads again.
 */

export interface WorkingSetStats {
  /** Bytes held now (the ledgers' own estimate of what they take). */
  bytes: number;
  /** Users held (ledgers, and users known to be over the row bound). */
  users: number;
  hits: number;
  misses: number;
  evictions: number;
}

interface Entry<T> {
  generation: string;
  /** Null: the user is not held (over the row bound); the engine answers for them. */
  value: T | null;
  bytes: number;
}

/** What a user known to be over the row bound costs to remember. */
const NOT_HELD_BYTES = 64;

export class LedgerCache<T> {
  /** Insertion order is recency: the first entry is the least recently used. */
  private readonly entries = new Map<string, Entry<T>>();
  private readonly reading = new Map<string, Promise<T | null>>();
  private readonly closed = new Set<string>();
  private held = 0;
  private readonly counts = { hits: 0, misses: 0, evictions: 0 };

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: T) => number,
  ) {}

  /**
   * The ledger of `user` in `generation`: held, or read by `read` (once, whoever else asks
   * meanwhile). `read` answers null for a user not to hold; that answer is remembered too.
   */
  async get(generation: string, user: string, read: () => Promise<T | null>): Promise<T | null> {
    const key = `${generation}\u0000${user}`;
    const entry = this.entries.get(key);
    if (entry) {
      this.counts.hits++;
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    let pending = this.reading.get(key);
    if (!pending) {
      this.counts.misses++;
      pending = read();
      this.reading.set(key, pending);
      pending.then(
        (value) => {
          this.reading.delete(key);
          this.keep(key, generation, value);
        },
        () => this.reading.delete(key),
      );
    }
    return pending;
  }

  /** Forgets a generation's ledgers (its port closed). */
  dropGeneration(generation: string): void {
    this.closed.add(generation);
    for (const [key, entry] of this.entries) {
      if (entry.generation !== generation) continue;
      this.entries.delete(key);
      this.held -= entry.bytes;
    }
  }

  stats(): WorkingSetStats {
    return { bytes: this.held, users: this.entries.size, ...this.counts };
  }

  private keep(key: string, generation: string, value: T | null): void {
    if (this.closed.has(generation) || this.maxBytes <= 0) return;
    const bytes = value === null ? NOT_HELD_BYTES : this.sizeOf(value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { generation, value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
      this.counts.evictions++;
    }
  }
}
