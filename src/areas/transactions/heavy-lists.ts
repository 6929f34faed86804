/**
 * The places for heavy lists (unpaginated lists of over HEAVY_LIST_ROWS transactions, seconds
 * of a core and tens of megabytes each), shared by client: at most `max` are sent at once, and
 * one client holds at most half of them (one at least). A list cannot be interrupted for
 * another client once it is sent, so a client's share is bounded when it starts: two stalled
 * readers of one token no longer keep every other client's large export away.
 */
export type HeavyListTurn =
  /** Granted: call it once the list is sent, cut short or abandoned (once; more calls are ignored). */
  | { release: () => void }
  /** The client holds its share already: 429, its own doing. */
  | { refused: 'over_share' }
  /** Every place is held by other clients: 503 until one ends. */
  | { refused: 'full' };

export class HeavyListPlaces {
  private held = 0;
  private readonly byClient = new Map<string, number>();

  /** `max` 0: no bound. */
  constructor(private readonly max: number) {}

  /** The most one client may hold at once. */
  get share(): number {
    return Math.max(1, Math.floor(this.max / 2));
  }

  take(client: string): HeavyListTurn {
    if (this.max <= 0) return { release: () => {} };
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.share) return { refused: 'over_share' };
    if (this.held >= this.max) return { refused: 'full' };
    this.held++;
    this.byClient.set(client, mine + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.held--;
        const left = (this.byClient.get(client) ?? 1) - 1;
        if (left > 0) this.byClient.set(client, left);
        else this.byClient.delete(client);
      },
    };
  }
}
