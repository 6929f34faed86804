/**
 * A bounded number of slots shared fairly by client, whatever the work: the store's queue (a
 * pool's connections are its slots, and a query that finds them all busy waits here) and
 * admission's (the requests running at once, granted one per turn of the event loop;
 * src/http/admission.ts). Work that finds every slot busy (or its turn not yet come) waits in
 * its client's line (client-context.ts). A free slot goes to the client
 * with work waiting that has the fewest slots in use, ties in turn (round robin), each
 * client's own work in the order it came: so a client that waits for each answer, holding
 * none when it asks, takes the next free slot before any client already running work, and
 * one client's waiting work never holds back another's by more than a turn. When `maxWaiting`
 * are waiting, the deepest line gives way: the arriving work is refused if its client's line,
 * with it, would be the deepest (ties included: one client's only waiting work is never traded
 * for another's), else the newest work of the deepest client is, to make room. Refused work
 * fails with the queue's `refusal` error. A queue that refused work or stayed full is pressure
 * for admission's shedding (StoreQueuePressure).
 */
import { currentClient } from './client-context.ts';
import { StoreUnavailableError } from './read-port.ts';

export interface FairQueueOptions {
  /** Work running at once: the pool's connections, the requests running. */
  slots: number;
  /** Work waiting at most (0: no bound). */
  maxWaiting: number;
  /** Work waiting longer fails with StoreUnavailableError (0: no limit). */
  maxWaitMs?: number;
  /** The error refused work fails with (default: StoreUnavailableError 'store is saturated'). */
  refusal?: () => Error;
  /**
   * How slots are granted: `at-once` (work gets a free slot when it asks, a freed slot goes to
   * the next in turn at once: the store's queue), or `one-per-turn` (at most one grant per
   * turn of the event loop, in its check phase: admission's). Work whose turn it is then runs
   * before the connections readable meanwhile are read, so granted inline its synchronous work
   * (an answer computed from memory) would run in the order connections became readable, one
   * after another, each request's whole work before the next request was even seen. One grant
   * per turn lets everything that arrived take part in each choice.
   */
  grants?: 'at-once' | 'one-per-turn';
}

/** Ends the work a slot was granted for; calls after the first are ignored. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  refuse: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
  cancel: (() => void) | undefined;
}

interface ClientState {
  /** Waiting work, oldest first. */
  line: Waiter[];
  /** Slots in use. */
  running: number;
}

export class FairQueue {
  private readonly clients = new Map<string, ClientState>();
  /**
   * The clients with work waiting, by the slots they use: `byRunning[n]` holds those using n,
   * in the order their turn comes (a client goes to the back whenever it moves).
   */
  private readonly byRunning: Set<string>[] = [];
  private waitingCount = 0;
  private free: number;
  private turnScheduled = false;
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
    return this.clients.get(client)?.line.length ?? 0;
  }

  /** Slots `client` uses now. */
  runningOf(client: string): number {
    return this.clients.get(client)?.running ?? 0;
  }

  /** `client`'s work running or waiting now. */
  inFlightOf(client: string): number {
    const state = this.clients.get(client);
    return state ? state.running + state.line.length : 0;
  }

  /**
   * Holds more than its fair share of the work in flight: it has some, at least as much as
   * the mean of the clients that have some (so a client with less is never heavy, and one that
   * waits for each answer, with none when it asks, never is).
   */
  isHeavy(client: string): boolean {
    const mine = this.inFlightOf(client);
    return mine > 0 && mine * this.clients.size >= this.running + this.waitingCount;
  }

  /**
   * A slot for `client`'s work (by default the current one's), at once when one is free and
   * nobody waits, else in its turn. Call the release it resolves with once the work ends.
   * Work still waiting when `signal` aborts leaves its line and its promise never settles.
   */
  acquire(client: string = currentClient(), signal?: AbortSignal): Promise<ReleaseSlot> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (!this.onePerTurn && this.free > 0 && this.waitingCount === 0) {
      this.free--;
      return Promise.resolve(this.slot(this.stateOf(client), client));
    }
    const { maxWaiting } = this.options;
    if (maxWaiting > 0 && this.waitingCount >= maxWaiting && !this.makeRoomFor(client)) {
      return Promise.reject(this.refusal());
    }
    return new Promise<ReleaseSlot>((grant, refuse) => {
      const waiter: Waiter = { grant, refuse, timer: undefined, cancel: undefined };
      const maxWaitMs = this.options.maxWaitMs ?? 0;
      if (maxWaitMs > 0) {
        waiter.timer = setTimeout(() => {
          this.remove(client, waiter);
          refuse(new StoreUnavailableError(`no store connection within ${maxWaitMs} ms`));
        }, maxWaitMs);
      }
      if (signal) {
        const onAbort = () => this.remove(client, waiter);
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.cancel = () => signal.removeEventListener('abort', onAbort);
      }
      const state = this.stateOf(client);
      state.line.push(waiter);
      if (state.line.length === 1) this.levelOf(state.running).add(client);
      this.waitingCount++;
      if (this.free > 0) this.scheduleTurn();
    });
  }

  /** Refuses the waiting work and all work to come with `error`; running work ends as usual. */
  close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const [client, state] of this.clients) {
      for (const waiter of state.line) {
        this.settle(waiter);
        waiter.refuse(error);
      }
      state.line = [];
      this.forgetIfIdle(client, state);
    }
    // Levels are made as they are first used: the array may have holes.
    for (const level of this.byRunning) level?.clear();
    this.waitingCount = 0;
  }

  /**
   * Whether, since the last call, the queue refused work for want of room or stayed full
   * throughout: the work cannot keep up.
   */
  takeSaturated(): boolean {
    const saturated = this.refusedSinceLook > 0 || (this.fullSinceLook && this.isFull);
    this.refusedSinceLook = 0;
    this.fullSinceLook = this.isFull;
    return saturated;
  }

  private get onePerTurn(): boolean {
    return this.options.grants === 'one-per-turn';
  }

  private get isFull(): boolean {
    return this.options.maxWaiting > 0 && this.waitingCount >= this.options.maxWaiting;
  }

  private refusal(): Error {
    return this.options.refusal?.() ?? new StoreUnavailableError('store is saturated');
  }

  private stateOf(client: string): ClientState {
    let state = this.clients.get(client);
    if (!state) {
      state = { line: [], running: 0 };
      this.clients.set(client, state);
    }
    return state;
  }

  private levelOf(running: number): Set<string> {
    let level = this.byRunning[running];
    if (!level) {
      level = new Set();
      this.byRunning[running] = level;
    }
    return level;
  }

  private forgetIfIdle(client: string, state: ClientState): void {
    if (state.running === 0 && state.line.length === 0) this.clients.delete(client);
  }

  /**
   * The queue is full: refuses the newest work of the deepest client other than `client`, if
   * that one's line is deeper than `client`'s would be with the arriving work. False:
   * `client`'s own work is to be refused.
   */
  private makeRoomFor(client: string): boolean {
    this.refusedSinceLook++;
    const own = this.waitingOf(client);
    let deepest: ClientState | undefined;
    let deepestClient = '';
    for (const level of this.byRunning) {
      for (const other of level ?? []) {
        const state = this.clients.get(other) as ClientState;
        if (other !== client && state.line.length > (deepest?.line.length ?? 0)) {
          deepest = state;
          deepestClient = other;
        }
      }
    }
    if (!deepest || deepest.line.length <= own + 1) return false;
    const newest = deepest.line.pop() as Waiter;
    if (deepest.line.length === 0) this.levelOf(deepest.running).delete(deepestClient);
    this.waitingCount--;
    this.noteBelowFull();
    this.settle(newest);
    newest.refuse(this.refusal());
    return true;
  }

  /** A slot in use by `client`. */
  private slot(state: ClientState, client: string): ReleaseSlot {
    this.moveRunning(state, client, +1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.moveRunning(state, client, -1);
      this.forgetIfIdle(client, state);
      this.free++;
      if (this.waitingCount === 0) return;
      if (this.onePerTurn) this.scheduleTurn();
      else while (this.free > 0 && this.waitingCount > 0) this.grantNext();
    };
  }

  /** Changes the slots `client` uses; with work waiting, it moves to the back of its new level. */
  private moveRunning(state: ClientState, client: string, by: 1 | -1): void {
    if (state.line.length > 0) this.levelOf(state.running).delete(client);
    state.running += by;
    if (state.line.length > 0) this.levelOf(state.running).add(client);
  }

  /** One grant in the event loop's next check phase, then another while slots are free. */
  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      if (this.free > 0 && this.waitingCount > 0) this.grantNext();
      if (this.free > 0 && this.waitingCount > 0) this.scheduleTurn();
    });
  }

  /** A free slot to the waiting work of the client using the fewest, in turn. */
  private grantNext(): void {
    const level = this.byRunning.find((clients) => clients !== undefined && clients.size > 0);
    const client = level?.values().next().value;
    if (level === undefined || client === undefined) return;
    const state = this.clients.get(client) as ClientState;
    const waiter = state.line.shift() as Waiter;
    level.delete(client);
    if (state.line.length > 0) level.add(client);
    this.waitingCount--;
    this.noteBelowFull();
    this.settle(waiter);
    this.free--;
    waiter.grant(this.slot(state, client));
  }

  /** The waiter leaves the queue (granted, refused or gone): no timer, no abort listener. */
  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    waiter.cancel?.();
  }

  private remove(client: string, waiter: Waiter): void {
    const state = this.clients.get(client);
    const at = state?.line.indexOf(waiter) ?? -1;
    if (!state || at < 0) return;
    state.line.splice(at, 1);
    if (state.line.length === 0) this.levelOf(state.running).delete(client);
    this.forgetIfIdle(client, state);
    this.waitingCount--;
    this.noteBelowFull();
    this.settle(waiter);
  }

  private noteBelowFull(): void {
    if (!this.isFull) this.fullSinceLook = false;
  }
}

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
