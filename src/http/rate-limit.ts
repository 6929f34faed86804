/**
 * Who a request is, for rate limits and fairness, and the fixed-window counters behind the
 * limits. Everything here is synchronous and O(1) per request: it runs for every request,
 * floods included, before any store access (see admission.ts for the order of the checks).
 */
import type { FastifyRequest } from 'fastify';
import { tokenId } from '../tokens/store.ts';
import { presentedTokenHash } from './auth.ts';

/** A client as the limits see it. */
export interface ClientKey {
  /** `token:<sha256 prefix>` for a well-formed bearer token, else `ip:<client address>`. */
  key: string;
  /** What a log may name: the token's public id (as `npm run token -- --list` shows) or the address. */
  label: string;
  /** The token's hash when the request presents a well-formed token. */
  tokenHash: string | null;
}

/**
 * The client of a request: its bearer token as authentication reads it when the token is
 * well formed (hashed, so no credential is kept in memory), else its address. A malformed or
 * missing credential cannot authenticate, so it is its address's problem, not a bucket of its
 * own: a flood that varies a bogus credential still lands in one bucket.
 */
export function clientKey(request: FastifyRequest): ClientKey {
  const tokenHash = presentedTokenHash(request);
  if (tokenHash !== null) {
    return {
      key: `token:${tokenHash.slice(0, 32)}`,
      label: `token ${tokenId(tokenHash)}`,
      tokenHash,
    };
  }
  return { key: `ip:${request.ip}`, label: `address ${request.ip}`, tokenHash: null };
}

/** A bearer token of the right shape and checksum: only the store can tell whether it is live. */
export function presentsWellFormedToken(request: FastifyRequest): boolean {
  return presentedTokenHash(request) !== null;
}

interface Window {
  count: number;
  startedAt: number;
}

export interface WindowState {
  /** Requests counted in the current window. */
  count: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/**
 * Fixed-window counters per key (as @fastify/rate-limit's local store counted them), bounded:
 * past `maxKeys` the oldest windows are forgotten first, so a flood of distinct keys costs
 * memory in proportion to `maxKeys`, never more. `peek` reads without counting, so a request
 * refused for another reason (shed, over its concurrency) never spends the client's budget.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly max: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  peek(key: string): WindowState {
    const now = this.now();
    const window = this.live(key, now);
    return this.state(window?.count ?? 0, window?.startedAt ?? now, now);
  }

  hit(key: string): WindowState {
    const now = this.now();
    let window = this.live(key, now);
    if (!window) {
      window = { count: 0, startedAt: now };
      // Re-inserted last: the map's first entries are the oldest windows.
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > this.maxKeys) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    window.count++;
    return this.state(window.count, window.startedAt, now);
  }

  /** True when the next request of `key` would be over the limit. */
  exhausted(key: string): boolean {
    return this.peek(key).count >= this.max;
  }

  get size(): number {
    return this.windows.size;
  }

  private live(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && now - window.startedAt < this.windowMs) return window;
    return undefined;
  }

  private state(count: number, startedAt: number, now: number): WindowState {
    return {
      count,
      remaining: Math.max(0, this.max - count),
      resetSeconds: Math.max(1, Math.ceil((startedAt + this.windowMs - now) / 1000)),
    };
  }
}
