/**
 * The working set's memory: the ledgers of the users asked lately, bounded by bytes, the least
 * recently used out first, shared by the ports being served (one per generation). A ledger
 * belongs to the port that read it (its key names the port), so a request is only ever answered
 * from its own port's data, and a port's ledgers go when it closes. A ledger is read once per
 * user and port however many requests ask at once (they share the read); a failed read is not
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
  port: number;
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
  private readonly closed = new Set<number>();
  private ports = 0;
  private held = 0;
  private readonly counts = { hits: 0, misses: 0, evictions: 0 };

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: T) => number,
  ) {}

  /** A number for a new port's ledgers. */
  newPort(): number {
    return ++this.ports;
  }

  /**
   * The ledger of `user` for `port`: held, or read by `read` (once, whoever else asks
   * meanwhile). `read` answers null for a user not to hold; that answer is remembered too.
   */
  async get(port: number, user: string, read: () => Promise<T | null>): Promise<T | null> {
    const key = `${port}\u0000${user}`;
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
          this.keep(key, port, value);
        },
        () => this.reading.delete(key),
      );
    }
    return pending;
  }

  /** The users whose ledgers `port` holds, the most recently used first, `limit` at most. */
  heldUsers(port: number, limit: number): string[] {
    const users: string[] = [];
    const entries = [...this.entries];
    for (let at = entries.length - 1; at >= 0 && users.length < limit; at--) {
      const [key, entry] = entries[at] as [string, Entry<T>];
      if (entry.port === port && entry.value !== null)
        users.push(key.slice(key.indexOf('\u0000') + 1));
    }
    return users;
  }

  /** Forgets a port's ledgers (it closed). */
  dropPort(port: number): void {
    this.closed.add(port);
    for (const [key, entry] of this.entries) {
      if (entry.port !== port) continue;
      this.entries.delete(key);
      this.held -= entry.bytes;
    }
  }

  stats(): WorkingSetStats {
    return { bytes: this.held, users: this.entries.size, ...this.counts };
  }

  private keep(key: string, port: number, value: T | null): void {
    if (this.closed.has(port) || this.maxBytes <= 0) return;
    const bytes = value === null ? NOT_HELD_BYTES : this.sizeOf(value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { port, value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
      this.counts.evictions++;
    }
  }
}
