/**
 * The open event streams of this process, and what writes to them: when a new generation
 * starts to serve (the hot swap's listener), what it changed is read once for every user with
 * a stream open (one read of the change log's range, whatever the number of streams), and
 * each stream of a user it changed gets its `changed` (or every stream a `reset`, when the new
 * generation does not descend from the one before). Generations are followed one at a time, in
 * the order they served.
 *
 * Writing never waits for a reader: a frame is handed to the stream's body and the next stream
 * is written. A client that stops reading is cut by the stalled-reader guard
 * (src/http/stalled-readers.ts) once its socket stays full; until then its frames wait in its
 * own buffers.
 *
 * One timer for every stream: a keep-alive comment after a silence, the end of a stream's
 * lifetime. Another sweep checks the streams' tokens (revoked, expired, or their user gone) a
 * token at a time, so a token store that cannot answer from memory is asked one lookup at once.
 */
import { PassThrough } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { USER_DATA_TABLES } from '../../contract/tables.ts';
import {
  descent,
  type ResetReason,
  type ServedGeneration,
  servedGeneration,
} from '../../port/change-log.ts';
import type { PortLease, PortSource } from '../../port/hot-swap.ts';
import type { ReadPort, UserChange } from '../../port/read-port.ts';
import type { ChangedData } from './schemas.ts';
import { eventFrame, KEEP_ALIVE_FRAME, RETRY_FRAME } from './sse.ts';

/** Token lookups of a check between two turns of the event loop. */
const TOKENS_PER_TURN = 256;

export interface EventHubOptions {
  /** Open streams a token may hold. */
  perToken: number;
  /** Open streams in the process. */
  max: number;
  /** A comment is written after this long without a frame. */
  keepAliveMs: number;
  /** A stream ends this long after it opened. */
  lifetimeMs: number;
  /** How often the open streams' tokens are checked. */
  tokenCheckMs: number;
  log: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
  };
}

interface Stream {
  readonly userId: string;
  readonly tokenHash: string;
  /**
   * The generation the stream stands at: the last it was brought to, whether or not its user's
   * data changed there (the client's next `changed` counts from it).
   */
  at: ServedGeneration;
  readonly body: PassThrough;
  readonly openedAt: number;
  lastWriteAt: number;
  ended: boolean;
}

/** Why a stream cannot open now. */
export type StreamRefusal = 'token' | 'process';

/** A place taken for a stream while its opening is read: opened, or cancelled. */
export interface StreamPlace {
  /**
   * The stream's body (the response), told everything up to `at` (`opening`, its catch-up),
   * `ready` last. It leaves the hub when the body closes: ended and sent, or the client gone.
   */
  open(userId: string, at: ServedGeneration, opening: readonly string[]): PassThrough;
  cancel(): void;
}

/** The frame of a `changed` event for `change`, from `from` to `to`. */
export function changedFrame(from: string, to: string, change: UserChange): string {
  const counts = { added: change.added, modified: change.modified, removed: change.removed };
  const changed = new Set<string>(change.tables);
  if (counts.added + counts.modified + counts.removed > 0) changed.add('transactions');
  const data: ChangedData = {
    generation: to,
    previous_generation: from,
    transactions: counts,
    tables: USER_DATA_TABLES.filter((table) => changed.has(table)),
  };
  return eventFrame({ event: 'changed', data });
}

export const resetFrame = (generation: string, reason: ResetReason) =>
  eventFrame({ event: 'reset', data: { generation, reason } });

export class EventHub {
  private readonly streams = new Set<Stream>();
  /** Streams open or opening, per token. */
  private readonly perToken = new Map<string, number>();
  private opening = 0;
  /** Generations followed one at a time. */
  private following: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;
  private checkingTokens = false;
  /** Called once the last stream closed, while closing. */
  private drained: (() => void) | undefined;

  constructor(
    private readonly source: PortSource,
    private readonly options: EventHubOptions,
  ) {
    this.unsubscribe = source.onServe?.((lease) => this.follow(lease)) ?? (() => {});
    const tick = Math.min(1000, options.keepAliveMs);
    this.timers.push(
      setInterval(() => this.tick(), tick).unref(),
      setInterval(() => void this.checkTokens(), options.tokenCheckMs).unref(),
    );
  }

  /** A place for a stream of this token's, or why there is none. */
  reserve(tokenHash: string): StreamPlace | StreamRefusal {
    if ((this.perToken.get(tokenHash) ?? 0) >= this.options.perToken) return 'token';
    if (this.streams.size + this.opening >= this.options.max) return 'process';
    this.perToken.set(tokenHash, (this.perToken.get(tokenHash) ?? 0) + 1);
    this.opening++;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.opening--;
      return true;
    };
    return {
      cancel: () => {
        if (settle()) this.release(tokenHash);
      },
      open: (userId, at, opening) => {
        if (!settle()) throw new Error('a stream place is opened once');
        return this.add(userId, tokenHash, at, opening);
      },
    };
  }

  private add(
    userId: string,
    tokenHash: string,
    at: ServedGeneration,
    opening: readonly string[],
  ): PassThrough {
    const now = Date.now();
    const stream: Stream = {
      userId,
      tokenHash,
      at,
      body: new PassThrough(),
      openedAt: now,
      lastWriteAt: now,
      ended: false,
    };
    this.streams.add(stream);
    stream.body.once('close', () => {
      this.streams.delete(stream);
      stream.ended = true;
      this.release(tokenHash);
      if (this.streams.size === 0) this.drained?.();
    });
    this.write(stream, [
      RETRY_FRAME,
      ...opening,
      eventFrame({ event: 'ready', data: { generation: at.generation } }),
    ]);
    if (this.closed) this.end(stream);
    // Opened on a generation a swap has replaced since: brought to the one served now.
    else if (at.generation !== this.source.current.generation)
      void this.follow(this.source.lease());
    return stream.body;
  }

  private release(tokenHash: string): void {
    const left = (this.perToken.get(tokenHash) ?? 1) - 1;
    if (left <= 0) this.perToken.delete(tokenHash);
    else this.perToken.set(tokenHash, left);
  }

  private write(stream: Stream, frames: readonly string[]): void {
    if (stream.ended || stream.body.destroyed) return;
    stream.body.write(frames.join(''));
    stream.lastWriteAt = Date.now();
  }

  /** Ends a stream cleanly: the response ends, the client reconnects when it wants. */
  private end(stream: Stream): void {
    if (stream.ended) return;
    stream.ended = true;
    stream.body.end();
  }

  /**
   * Brings every stream to the generation `lease` holds, after those queued before it; resolves
   * once they are told (the generation replaced stays open until then: its close would hold
   * the event loop before the writes).
   */
  private follow(lease: PortLease): Promise<void> {
    this.following = this.following
      .then(async () => {
        // A generation replaced since is passed over: the one that replaced it brings every
        // stream further (a stream is never taken back to an older generation).
        if (this.closed || lease.port.generation !== this.source.current.generation) return;
        await this.bringTo(lease.port);
      })
      .catch((error: unknown) =>
        this.options.log.warn({ error: String(error) }, 'event streams not written'),
      )
      .finally(() => lease.release());
    return this.following;
  }

  private async bringTo(port: ReadPort): Promise<void> {
    const target = servedGeneration(port);
    const started = performance.now();
    // The streams by the generation they were last told of: each group is one read.
    const groups = new Map<string, Stream[]>();
    for (const stream of this.streams) {
      if (stream.ended || stream.at.generation === target.generation) continue;
      const group = groups.get(stream.at.generation);
      if (group) group.push(stream);
      else groups.set(stream.at.generation, [stream]);
    }
    let changed = 0;
    let resets = 0;
    let streams = 0;
    for (const [from, group] of groups) {
      streams += group.length;
      const way = descent((group[0] as Stream).at, port.sync);
      if ('reset' in way) {
        const frame = resetFrame(target.generation, way.reset);
        for (const stream of group) this.write(stream, [frame]);
        resets += group.length;
      } else {
        const users = [...new Set(group.map((stream) => stream.userId))];
        let found: UserChange[];
        try {
          found = await port.userChanges(users, way.from, target.seq);
        } catch (error) {
          // Unread, these clients would miss the change: they reconnect with their
          // Last-Event-ID and catch up from the change log.
          for (const stream of group) this.end(stream);
          this.options.log.warn(
            { error: String(error), generation: target.generation, streams: group.length },
            'event streams ended: what the generation changed could not be read',
          );
          continue;
        }
        const byUser = new Map(found.map((change) => [change.userId, change]));
        for (const stream of group) {
          const change = byUser.get(stream.userId);
          if (!change) continue;
          this.write(stream, [changedFrame(from, target.generation, change)]);
          changed++;
        }
      }
      for (const stream of group) stream.at = target;
    }
    if (streams > 0) {
      this.options.log.info(
        {
          generation: target.generation,
          streams,
          changed,
          resets,
          ms: Math.round(performance.now() - started),
        },
        'event streams told of a new generation',
      );
    }
  }

  /** Keep-alive comments after a silence; streams past their lifetime end. */
  private tick(): void {
    const now = Date.now();
    for (const stream of this.streams) {
      if (now - stream.openedAt >= this.options.lifetimeMs) this.end(stream);
      else if (now - stream.lastWriteAt >= this.options.keepAliveMs) {
        this.write(stream, [KEEP_ALIVE_FRAME]);
      }
    }
  }

  /** Ends the streams of tokens revoked, expired or whose user is gone, one lookup at a time. */
  private async checkTokens(): Promise<void> {
    if (this.checkingTokens || this.streams.size === 0) return;
    this.checkingTokens = true;
    const lease = this.source.lease();
    try {
      const byToken = new Map<string, Stream[]>();
      for (const stream of this.streams) {
        const streams = byToken.get(stream.tokenHash);
        if (streams) streams.push(stream);
        else byToken.set(stream.tokenHash, [stream]);
      }
      let looked = 0;
      for (const [tokenHash, streams] of byToken) {
        if (this.closed) break;
        // Lookups answered from memory never leave the event loop: other work gets its turn
        // every so often (10,000 of them in a row held it 4 to 25 ms on this machine).
        if (++looked % TOKENS_PER_TURN === 0) await setImmediate();
        const owner = await lease.port.tokenOwner(tokenHash).catch(() => undefined);
        // A store that cannot answer leaves the streams as they are.
        if (owner === undefined) continue;
        const live =
          owner !== null && (owner.expiresAtMs === null || owner.expiresAtMs > Date.now());
        for (const stream of streams) {
          if (!live || owner?.userId !== stream.userId) this.end(stream);
        }
      }
    } finally {
      lease.release();
      this.checkingTokens = false;
    }
  }

  /**
   * Ends every stream (shutdown), so that the server's drain is not held by them: resolves once
   * they are sent, or `graceMs` later with the rest cut (clients that do not read).
   */
  async close(graceMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    for (const timer of this.timers) clearInterval(timer);
    for (const stream of this.streams) this.end(stream);
    if (this.streams.size === 0) return;
    const drained = new Promise<void>((resolve) => {
      this.drained = resolve;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([drained, late]);
    clearTimeout(timer);
    for (const stream of this.streams) stream.body.destroy();
  }
}
