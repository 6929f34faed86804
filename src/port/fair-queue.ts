/**
 * The store's queue, fair by client, whatever the engine: a pool's connections are its
 * slots, and work that finds them all busy waits here, in one line per client
 * (client-context.ts). A freed slot goes to the clients with work waiting in turn (round
 * robin), each client's own work in the order it came, so one client's waiting work never
 * holds back another's by more than a turn. When `maxWaiting` are waiting, the deepest line
 * gives way: the arriving work is refused if its client's line, with it, would be the deepest
 * (ties included: one client's only waiting work is never traded for another's), else the
 * newest work of the deepest client is, to make room. Refused work fails
 * with StoreUnavailableError (503 with Retry-After). A queue that refused work or stayed full
 * is pressure for admission's shedding (StoreQueuePressure).
 */
import { currentClient } from './client-context.ts';
import { StoreUnavailableError } from './read-port.ts';

export interface FairQueueOptions {
  /** Work running at once: the pool's connections. */
  slots: number;
  /** Work waiting at most (0: no bound). */
  maxWaiting: number;
  /** Work waiting longer fails with StoreUnavailableError (0: no limit). */
  maxWaitMs?: number;
}

/** Ends the work a slot was granted for; calls after the first are ignored. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  refuse: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

export class FairQueue {
  /** Each client's waiting work, oldest first; the map's order is whose turn comes next. */
  private readonly lines = new Map<string, Waiter[]>();
  private waitingCount = 0;
  private free: number;
  /** Work that waits for the queue to be idle (whenIdle). */
  private readonly idleWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private closedWith: Error | undefined;
  /** For pressure: work refused since the last look, and whether the queue stayed full. */
  private refusedSinceLook = 0;
  private fullSinceLook = false;

  constructor(private readonly options: FairQueueOptions) {
    this.free = options.slots;
  }

  /** Work waiting now. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Slots in use now. */
  get running(): number {
    return this.options.slots - this.free;
  }

  /** Waiting work of `client` now. */
  waitingOf(client: string): number {
    return this.lines.get(client)?.length ?? 0;
  }

  /**
   * A slot for `client`'s work (by default the current one's), at once when one is free and
   * nobody waits, else in its turn. Call the release it resolves with once the work ends.
   */
  acquire(client: string = currentClient()): Promise<ReleaseSlot> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.free > 0 && this.waitingCount === 0) {
      this.free--;
      return Promise.resolve(this.slot());
    }
    const { maxWaiting } = this.options;
    if (maxWaiting > 0 && this.waitingCount >= maxWaiting && !this.makeRoomFor(client)) {
      return Promise.reject(saturated());
    }
    return new Promise<ReleaseSlot>((grant, refuse) => {
      const waiter: Waiter = { grant, refuse, timer: undefined };
      const maxWaitMs = this.options.maxWaitMs ?? 0;
      if (maxWaitMs > 0) {
        waiter.timer = setTimeout(() => {
          this.remove(client, waiter);
          refuse(new StoreUnavailableError(`no store connection within ${maxWaitMs} ms`));
        }, maxWaitMs);
      }
      const line = this.lines.get(client);
      if (line) line.push(waiter);
      else this.lines.set(client, [waiter]);
      this.waitingCount++;
    });
  }

  /**
   * Resolves once a slot is free and no work waits: for work that must never take a turn from
   * a client's (warming a generation's memory). Rejects when the queue closes.
   */
  whenIdle(): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.free > 0 && this.waitingCount === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.idleWaiters.push({ resolve, reject }));
  }

  /** Refuses the waiting work and all work to come with `error`; running work ends as usual. */
  close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const waiter of this.idleWaiters.splice(0)) waiter.reject(error);
    for (const line of this.lines.values()) {
      for (const waiter of line) {
        clearTimeout(waiter.timer);
        waiter.refuse(error);
      }
    }
    this.lines.clear();
    this.waitingCount = 0;
  }

  /**
   * Whether, since the last call, the queue refused work for want of room or stayed full
   * throughout: the store cannot keep up.
   */
  takeSaturated(): boolean {
    const saturated = this.refusedSinceLook > 0 || (this.fullSinceLook && this.isFull);
    this.refusedSinceLook = 0;
    this.fullSinceLook = this.isFull;
    return saturated;
  }

  private get isFull(): boolean {
    return this.options.maxWaiting > 0 && this.waitingCount >= this.options.maxWaiting;
  }

  /**
   * The queue is full: refuses the newest work of the deepest client other than `client`, if
   * that one's line is deeper than `client`'s would be with the arriving work. False:
   * `client`'s own work is to be refused.
   */
  private makeRoomFor(client: string): boolean {
    this.refusedSinceLook++;
    const own = this.waitingOf(client);
    let deepest: Waiter[] | undefined;
    let deepestClient = '';
    for (const [other, line] of this.lines) {
      if (other !== client && line.length > (deepest?.length ?? 0)) {
        deepest = line;
        deepestClient = other;
      }
    }
    if (!deepest || deepest.length <= own + 1) return false;
    const newest = deepest.pop() as Waiter;
    if (deepest.length === 0) this.lines.delete(deepestClient);
    this.waitingCount--;
    this.noteBelowFull();
    clearTimeout(newest.timer);
    newest.refuse(saturated());
    return true;
  }

  private slot(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOn();
    };
  }

  /** A slot was freed: the next client in turn gets it (then waits at the back), else it is free. */
  private handOn(): void {
    for (const [client, line] of this.lines) {
      const waiter = line.shift() as Waiter;
      this.lines.delete(client);
      if (line.length > 0) this.lines.set(client, line);
      this.waitingCount--;
      this.noteBelowFull();
      clearTimeout(waiter.timer);
      waiter.grant(this.slot());
      return;
    }
    this.free++;
    for (const waiter of this.idleWaiters.splice(0)) waiter.resolve();
  }

  private remove(client: string, waiter: Waiter): void {
    const line = this.lines.get(client);
    const at = line?.indexOf(waiter) ?? -1;
    if (!line || at < 0) return;
    line.splice(at, 1);
    if (line.length === 0) this.lines.delete(client);
    this.waitingCount--;
    this.noteBelowFull();
  }

  private noteBelowFull(): void {
    if (!this.isFull) this.fullSinceLook = false;
  }
}

const saturated = () => new StoreUnavailableError('store is saturated');

/**
 * The store queues of the process, for admission: each sample asks whether any of them
 * refused work or stayed full since the last sample (PressureMonitor's `storeQueue` signal).
 */
export class StoreQueuePressure {
  private readonly queues = new Set<FairQueue>();

  /** Watches `queue` until the returned function is called (its pool closed). */
  watch(queue: FairQueue): () => void {
    this.queues.add(queue);
    return () => this.queues.delete(queue);
  }

  /** Whether any queue refused work or stayed full since the last call. */
  takeSaturated(): boolean {
    let saturated = false;
    // Every queue is asked, so each starts its next look now.
    for (const queue of this.queues) saturated = queue.takeSaturated() || saturated;
    return saturated;
  }
}
