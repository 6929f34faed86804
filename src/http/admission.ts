/**
 * Admission: which requests the server takes on, and in what order their work starts, decided
 * in one early `onRequest` hook, before authentication and before any store access. A request
 * refused here is answered (after a short hold, below) and goes no further: no later hook
 * runs, nothing else tries to answer it. In order:
 *
 * 1. Probes (`/healthz`, `/readyz`) are always let through, at once: an orchestrator must see
 *    the truth, and one client's flood must not take the replica out of a load balancer.
 * 2. A malformed credential from an address past its failed-authentication budget: 429, no
 *    store lookup; so is a token that already failed within the last second. A token that
 *    authenticated lately passes; another well-formed token is still looked up, so a new live
 *    token behind a shared address is served, but only `MAX_UNVERIFIED_LOOKUPS` such lookups
 *    per address run at once (429 `Retry-After: 1` beyond), so guessing from one address
 *    costs the store little.
 * 3. The client's rate limit (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW, per token, per address
 *    without one): 429 with `Retry-After`.
 * 4. The client's requests in flight (CLIENT_MAX_IN_FLIGHT running or waiting their turn):
 *    429 with `Retry-After: 1`.
 * 5. Pressure (event-loop delay, heap, RSS, a full store queue; load-shedding.ts): only a heavy
 *    client, one holding more than its fair share of the requests in flight (some, at least as
 *    many as the mean of the clients that have some), gets 503 with `Retry-After`. A client
 *    that waits for each answer is never shed; everyone else is served.
 * 6. Its turn. At most MAX_RUNNING_REQUESTS requests run at once (a request runs from here
 *    until its answer is handed to the socket); the others wait, each in its client's line
 *    (port/fair-queue.ts), and a freed place goes to the client running the fewest, in turn.
 *    The event loop serves connections in the order their bytes arrive, so without this a
 *    flood of 240 connections put a polite client's request behind 240 others; with it, the
 *    polite client waits for about one request of each other client. When MAX_WAITING_REQUESTS
 *    wait, the deepest line gives way: its newest request (or the arriving one, if its own line
 *    is the deepest) is refused with 429 `Retry-After: 1`.
 * 7. Running: the request counts against the client's rate limit (refused ones never do), and
 *    everything it does runs as its client's (port/client-context.ts): the store's queue takes
 *    turns between clients too.
 *
 * A refusal is answered REFUSAL_DELAY_MS after it was decided (one timer for all of them):
 * a client that ignores `Retry-After` and asks again at once gets at most one refusal per
 * connection per hold, so it cannot buy the event loop's time with refusals. Refused requests
 * are not logged one by one: a summary every LOG_SUMMARY_MS says how many were refused, why and
 * for which clients, and pressure is logged when it starts and ends.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import fp from 'fastify-plugin';
import { runAsClient } from '../port/client-context.ts';
import { FairQueue, type ReleaseSlot } from '../port/fair-queue.ts';
import { sendDetail } from './fastapi/detail.ts';
import {
  type PressureMonitor as Monitor,
  PressureMonitor,
  type PressureSample,
  type PressureThresholds,
} from './load-shedding.ts';
import { clientKey, FixedWindowLimiter, presentsWellFormedToken } from './rate-limit.ts';

export type RefusalReason = 'rate_limit' | 'auth_failures' | 'concurrency' | 'shed' | 'queue_full';

export interface AdmissionOptions {
  /** Requests per client per window; 0 turns rate limiting off. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Failed authentications (401) per address per window. */
  authFailures: number;
  /** Requests of one client running or waiting their turn at once; 0: no bound. */
  maxInFlightPerClient: number;
  /** Requests running at once (0: no bound, every request runs when it comes). */
  maxRunning: number;
  /** Requests waiting their turn at most (0: no bound). */
  maxWaiting: number;
  /** How long a refusal is held before it is answered (0: at once). */
  refusalDelayMs: number;
  /** Pressure thresholds; all 0 and no store queue: no shedding. */
  pressure: PressureThresholds;
  /** The store's queue refused work or stayed full since the last call (pressure). */
  storeQueueSaturated?: () => boolean;
  sampleIntervalMs: number;
  /** `Retry-After` on a shed request. */
  retryAfterSeconds: number;
  /** How often the refusals are summed up in the log (default 10 s). */
  logSummaryMs?: number;
  onRefusal?: (reason: RefusalReason) => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Why admission refused the request (it was answered there), else null. */
    refusal: RefusalReason | null;
    /**
     * Gives the request's place among those running back before its answer ends: a response
     * that stays open for long without work (an event stream) holds none.
     */
    leaveRunning: () => void;
  }
  interface FastifyInstance {
    admission: { monitor: Monitor; queue: FairQueue };
  }
}

/** Probes are never limited or shed. */
const PROBES = new Set(['/healthz', '/readyz']);

/** Store lookups of unverified tokens from one address past its failure budget, at once. */
export const MAX_UNVERIFIED_LOOKUPS = 2;

/** How long a token that failed is refused without a lookup, from a guessing address. */
const FAILED_TOKEN_MS = 1000;

/** Tokens that authenticated (or failed) lately, remembered at most, each. */
const REMEMBERED_TOKENS = 10_000;

const LOG_SUMMARY_MS = 10_000;

/** Refusals held at once at most; past it one is answered without its hold. */
const MAX_HELD_REFUSALS = 10_000;

/**
 * Answers held for a fixed delay, in the order they came, with one timer: the refusals a client
 * gets by asking again at once without waiting arrive no faster than one per connection per
 * delay.
 */
class HeldAnswers {
  private readonly due: { at: number; answer: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly delayMs: number) {}

  hold(answer: () => void): void {
    if (this.delayMs <= 0 || this.due.length >= MAX_HELD_REFUSALS) {
      answer();
      return;
    }
    this.due.push({ at: Date.now() + this.delayMs, answer });
    this.timer ??= setTimeout(() => this.flush(false), this.delayMs);
  }

  /** Answers what is due (everything, when `all`), and waits for the rest. */
  flush(all: boolean): void {
    this.timer = undefined;
    const now = Date.now();
    let answered = 0;
    for (const { at, answer } of this.due) {
      if (!all && at > now) break;
      answered++;
      answer();
    }
    this.due.splice(0, answered);
    const next = this.due[0];
    if (next) this.timer = setTimeout(() => this.flush(false), Math.max(1, next.at - now));
  }
}

const TOP_CLIENTS = 5;

/**
 * Fastify's per-request log lines, without the requests admission refused (they are summed up
 * instead, so a flood does not write a line per request). A refused request is decided after
 * its `incoming request` line: that line is at debug level, and the `request completed` line
 * (info) names the request too.
 */
export class AccessLogController extends LogController {
  override isLogDisabled(request: object): boolean {
    return (request as Partial<FastifyRequest>).refusal != null;
  }

  override incomingRequest(request: FastifyRequest, _reply: FastifyReply): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.info(
        { req: request, res: reply, responseTime: reply.elapsedTime },
        'request completed',
      );
    }
  }
}

class RefusalSummary {
  private byReason = new Map<RefusalReason, number>();
  private byClient = new Map<string, number>();
  private total = 0;

  add(reason: RefusalReason, label: string): void {
    this.total++;
    this.byReason.set(reason, (this.byReason.get(reason) ?? 0) + 1);
    // Bounded: a flood of distinct clients keeps only the first 10,000 in one summary.
    if (this.byClient.size < 10_000 || this.byClient.has(label)) {
      this.byClient.set(label, (this.byClient.get(label) ?? 0) + 1);
    }
  }

  take(): object | null {
    if (this.total === 0) return null;
    const top = [...this.byClient.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_CLIENTS)
      .map(([client, refused]) => ({ client, refused }));
    const summary = {
      refused: this.total,
      reasons: Object.fromEntries(this.byReason),
      clients: this.byClient.size,
      top,
    };
    this.byReason = new Map();
    this.byClient = new Map();
    this.total = 0;
    return summary;
  }
}

const MIB = 1024 * 1024;

function describe(sample: PressureSample) {
  return {
    crossed: sample.crossed,
    eventLoopDelayMs: Math.round(sample.eventLoopDelayMs),
    eventLoopUtilization: Number(sample.eventLoopUtilization.toFixed(2)),
    heapUsedMiB: Math.round(sample.heapUsedBytes / MIB),
    rssMiB: Math.round(sample.rssBytes / MIB),
  };
}

export const admissionPlugin = fp<AdmissionOptions>(async (app: FastifyInstance, options) => {
  app.decorateRequest('refusal', null);
  app.decorateRequest('leaveRunning', () => {});
  const summary = new RefusalSummary();
  const queue = new FairQueue({
    slots: options.maxRunning > 0 ? options.maxRunning : Number.MAX_SAFE_INTEGER,
    maxWaiting: options.maxWaiting,
    refusal: () => new Error('no room to wait: the deepest line gave way'),
    // Chosen one at a time, each time among every request that arrived: the event loop
    // reads what became readable between two grants.
    grants: 'one-per-turn',
  });
  const held = new HeldAnswers(options.refusalDelayMs);
  let pressured = false;
  const monitor = new PressureMonitor(
    options.pressure,
    (sample) => {
      const now = sample.crossed.length > 0;
      if (now && !pressured) {
        app.log.warn(describe(sample), 'under pressure: shedding the heaviest clients');
      } else if (!now && pressured) {
        app.log.info(describe(sample), 'pressure over: every client served again');
      }
      pressured = now;
    },
    options.storeQueueSaturated ? { storeQueue: options.storeQueueSaturated } : {},
  );
  app.decorate('admission', { monitor, queue });

  const limiting = options.rateLimitMax > 0;
  const perClient = new FixedWindowLimiter(options.rateLimitMax, options.rateLimitWindowMs);
  const failures = new FixedWindowLimiter(options.authFailures, options.rateLimitWindowMs);
  const unverifiedLookups = new Map<string, number>();
  // Token hashes that authenticated lately, and those that failed (with when), each
  // insertion-ordered (the first entries are the oldest) and bounded.
  const verified = new Map<string, number>();
  const failed = new Map<string, number>();
  const remember = (tokens: Map<string, number>, tokenHash: string, at = 0) => {
    tokens.delete(tokenHash);
    tokens.set(tokenHash, at);
    if (tokens.size > REMEMBERED_TOKENS) {
      const oldest = tokens.keys().next().value;
      if (oldest !== undefined) tokens.delete(oldest);
    }
  };
  const capping = options.maxInFlightPerClient > 0;

  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    reason: RefusalReason,
    label: string,
    statusCode: 429 | 503,
    retryAfterSeconds: number,
  ) => {
    request.refusal = reason;
    summary.add(reason, label);
    options.onRefusal?.(reason);
    reply.header('retry-after', String(Math.max(1, retryAfterSeconds)));
    held.hold(() => {
      if (!reply.raw.destroyed) sendDetail(reply, statusCode);
    });
  };

  app.addHook('onRequest', (request, reply, done) => {
    const client = clientKey(request);
    // The rest of the request (its hooks, its handler, the store reads they start) runs as
    // its client's, so the store's queue takes turns between clients.
    if (PROBES.has(request.routeOptions.url ?? '')) return runAsClient(client.key, done);

    if (limiting && request.headers.authorization !== undefined && !request.is404) {
      const address = `ip:${request.ip}`;
      const known = client.tokenHash !== null && verified.has(client.tokenHash);
      if (!known && request.routeOptions.config.public !== true && failures.exhausted(address)) {
        const retry = failures.peek(address).resetSeconds;
        if (!presentsWellFormedToken(request)) {
          return refuse(request, reply, 'auth_failures', client.label, 429, retry);
        }
        const failedAt = client.tokenHash === null ? undefined : failed.get(client.tokenHash);
        if (failedAt !== undefined && Date.now() - failedAt < FAILED_TOKEN_MS) {
          // This very token failed within the second: no second lookup while the address is
          // guessing. (A token minted meanwhile counts a second later, as the store promises.)
          return refuse(request, reply, 'auth_failures', client.label, 429, retry);
        }
        const running = unverifiedLookups.get(address) ?? 0;
        if (running >= MAX_UNVERIFIED_LOOKUPS) {
          return refuse(request, reply, 'auth_failures', client.label, 429, 1);
        }
        // Authentication decides: served when live, 429 instead of 401 when not.
        request.authFailureRetryAfter = retry;
        unverifiedLookups.set(address, running + 1);
        reply.raw.once('close', () => {
          const left = (unverifiedLookups.get(address) ?? 1) - 1;
          if (left <= 0) unverifiedLookups.delete(address);
          else unverifiedLookups.set(address, left);
        });
      }
    }

    if (limiting) {
      // A request counts once it runs; those of the client waiting their turn will.
      const state = perClient.peek(client.key);
      if (state.count + queue.waitingOf(client.key) >= perClient.max) {
        reply.header('ratelimit-limit', String(perClient.max));
        reply.header('ratelimit-remaining', '0');
        reply.header('ratelimit-reset', String(state.resetSeconds));
        return refuse(request, reply, 'rate_limit', client.label, 429, state.resetSeconds);
      }
    }
    if (capping && queue.inFlightOf(client.key) >= options.maxInFlightPerClient) {
      return refuse(request, reply, 'concurrency', client.label, 429, 1);
    }
    if (monitor.underPressure && queue.isHeavy(client.key)) {
      return refuse(request, reply, 'shed', client.label, 503, options.retryAfterSeconds);
    }

    // Its turn: a place among the requests running, at once or once its client's turn comes.
    // Gone before its turn (the client hung up), it leaves its line.
    const gone = new AbortController();
    let release: ReleaseSlot | undefined;
    reply.raw.once('close', () => (release ? release() : gone.abort()));
    queue.acquire(client.key, gone.signal).then(
      (granted) => {
        release = granted;
        // Released once the whole answer is handed to the socket ('prefinish', emitted by
        // end()), not when the socket reports it written ('finish', 'close'): on a busy loop
        // those come late, after a client reading the answer may already have sent its next
        // request, which would then wait behind its own answered one. 'close' covers an answer
        // never ended.
        reply.raw.once('prefinish', granted);
        request.leaveRunning = granted;
        if (limiting) {
          const state = perClient.hit(client.key);
          reply.header('ratelimit-limit', String(perClient.max));
          reply.header('ratelimit-remaining', String(state.remaining));
          reply.header('ratelimit-reset', String(state.resetSeconds));
        }
        if (limiting && client.tokenHash !== null) {
          const tokenHash = client.tokenHash;
          reply.raw.once('finish', () => {
            if (request.userId) remember(verified, tokenHash);
            else if (reply.statusCode === 401 || reply.statusCode === 429) {
              remember(failed, tokenHash, Date.now());
            }
          });
        }
        runAsClient(client.key, done);
      },
      // The only refusal: the queue was full and this client's line the deepest.
      () => refuse(request, reply, 'queue_full', client.label, 429, 1),
    );
  });

  if (limiting) {
    app.addHook('onResponse', (request, reply, done) => {
      // Only a presented credential that failed counts: a request without one is not a guess.
      if (reply.statusCode === 401 && request.headers.authorization) {
        failures.hit(`ip:${request.ip}`);
      }
      done();
    });
  }

  monitor.start();
  const sampler = monitor.enabled
    ? setInterval(() => monitor.measure(), options.sampleIntervalMs).unref()
    : undefined;
  const summaryMs = options.logSummaryMs ?? LOG_SUMMARY_MS;
  const timer = setInterval(() => {
    const refused = summary.take();
    if (refused) app.log.warn({ ...refused, windowSeconds: summaryMs / 1000 }, 'refused requests');
  }, summaryMs);
  timer.unref();
  // A held refusal is answered at once when the server closes: nothing to wait for.
  app.addHook('preClose', async () => held.flush(true));
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearInterval(sampler);
    monitor.stop();
    const refused = summary.take();
    if (refused) app.log.warn(refused, 'refused requests');
  });
});
