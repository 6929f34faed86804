/**
 * What the bench asks for. A scenario draws each request at random (user, and for mixes the
 * variant), so the server sees many different users, as it would in production, rather than
 * one answer over and over. The same draw feeds the HTTP load and the in-process engine
 * ceiling, so both measure the same mix.
 */
import { addDays, oneYearBefore } from '../src/domain/calendar.ts';
import type { BenchUser } from './stores.ts';

export interface DrawnRequest {
  path: string;
  token: string | null;
}

export interface Users {
  typical: readonly BenchUser[];
  heavy: BenchUser | null;
}

export type Ceiling = 'framework' | 'engine';

export interface Scenario {
  name: string;
  connections: number;
  /**
   * `framework`: the bare route is its own ceiling; `engine`: compared with the raw store
   * queries (none when the requests are answered from memory: engine.ts).
   */
  ceiling: Ceiling;
  /**
   * The next request. `touched`: the tokens of the users every earlier request of the phase
   * named (drawn, prewarmed or measured; one token per user), so a draw can pick users the
   * server has not read yet.
   */
  draw: (random: () => number, users: Users, touched: ReadonlySet<string>) => DrawnRequest;
  /**
   * The most requests the scenario can still draw (its warmup and measured run together), for
   * draws that use something up: the cold scenarios' users not read yet.
   */
  supply?: (users: Users, touched: ReadonlySet<string>) => number;
  needsHeavy?: boolean;
  /** Slow scenarios run at least this long, so a short run still completes some requests. */
  minSeconds?: number;
  /** Requests sent once, unmeasured, before the scenario: a warm response cache or working set. */
  prewarm?: (users: Users) => DrawnRequest[];
  /** Part of `--quick`. */
  quick?: boolean;
}

const SPENDING_VARIANTS = {
  category: 'group_by=category&time_period=month',
  merchant: 'group_by=merchant&time_period=month',
  time_period: 'group_by=time_period&time_period=month',
  double: 'group_by=time_period&time_period=month&secondary_group_by=category',
} as const;
export type SpendingVariant = keyof typeof SPENDING_VARIANTS;
const VARIANT_NAMES = Object.keys(SPENDING_VARIANTS) as SpendingVariant[];

/** One of the first `count` items (all of them when fewer). */
function pick<T>(items: readonly T[], random: () => number, count = items.length): T {
  const item = items[Math.floor(random() * Math.min(count, items.length))];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
}

/**
 * The typical users the spending, profile and warm scenarios draw from: the first of the
 * store's users, which are in a seeded random order, so a random sample.
 */
export const SAMPLED_USERS = 1000;

/** The default window (no start_date / end_date) is the trailing year ending TODAY. */
const spending = (variant: SpendingVariant) => `/v2/users/spending?${SPENDING_VARIANTS[variant]}`;

export const TODAY = '2026-11-20';
/** Windows of the cache-miss mixes end on one of this many days before TODAY. */
const WINDOW_END_DAYS = 120;

/** A one-year window ending on a random recent day: practically never asked before. */
function newWindow(variant: SpendingVariant, random: () => number): string {
  const end = addDays(TODAY, -Math.floor(random() * WINDOW_END_DAYS));
  const start = addDays(oneYearBefore(end), 1);
  return `${spending(variant)}&start_date=${start}&end_date=${end}`;
}

/**
 * `cached`: the default trailing year for one of HOT_USERS users, so a (user, variant) seen
 * before is a repeat the response cache may answer. `misses`: a one-year window ending on a random recent day, so
 * practically every request is new to the cache (1,000 users x 4 variants x 120 ends).
 */
const typicalSpending =
  (variant: SpendingVariant | 'mix', windows: 'cached' | 'misses' = 'cached') =>
  (random: () => number, users: Users): DrawnRequest => {
    const user = pick(users.typical, random, windows === 'cached' ? HOT_USERS : SAMPLED_USERS);
    const chosen = variant === 'mix' ? pick(VARIANT_NAMES, random) : variant;
    if (windows === 'cached') return { path: spending(chosen), token: user.token };
    return { path: newWindow(chosen, random), token: user.token };
  };

const heavySpending =
  (variant: SpendingVariant) =>
  (_random: () => number, users: Users): DrawnRequest => {
    if (!users.heavy) throw new Error('this store has no heavy user');
    return { path: spending(variant), token: users.heavy.token };
  };

const healthz = (): DrawnRequest => ({ path: '/healthz', token: null });

export const TYPICAL_MIX = 'typical mix, hot users, cached';
export const TYPICAL_MIX_MISSES = 'typical mix, new windows';

/** The scenarios run against the main store, in order. */
export function mainScenarios(): Scenario[] {
  const typical = (variant: SpendingVariant, connections: number): Scenario => ({
    name: `typical ${variant}, new windows`,
    connections,
    ceiling: 'engine',
    draw: typicalSpending(variant, 'misses'),
  });
  const heavy = (variant: SpendingVariant, connections: number): Scenario => ({
    name: `heavy ${variant}, cached`,
    connections,
    ceiling: 'engine',
    draw: heavySpending(variant),
    needsHeavy: true,
    minSeconds: 5,
  });
  return [
    { name: 'bare route /healthz', connections: 1, ceiling: 'framework', draw: healthz },
    {
      name: 'bare route /healthz',
      connections: 32,
      ceiling: 'framework',
      draw: healthz,
      quick: true,
    },
    ...workingSetScenarios(),
    ...typicalMixes(),
    ...VARIANT_NAMES.flatMap((variant) => [typical(variant, 1), typical(variant, 32)]),
    { ...heavy('category', 1), quick: true },
    {
      quick: true,
      name: 'heavy category, new windows',
      connections: 1,
      ceiling: 'engine',
      draw: (random, users) => {
        if (!users.heavy) throw new Error('this store has no heavy user');
        // One user only: a random min_total_amount too (applied after the query, same cost),
        // so the few hundred requests of a run are practically never repeats.
        const window = newWindow('category', random);
        const minimum = (5000 + Math.floor(random() * 5000)) / 100;
        return {
          path: `${window}&min_total_amount=${minimum.toFixed(2)}`,
          token: users.heavy.token,
        };
      },
      needsHeavy: true,
      minSeconds: 5,
    },
    heavy('merchant', 1),
    heavy('time_period', 1),
    heavy('category', 4),
    recurringNewUsers(1),
    recurringNewUsers(32),
    {
      name: 'profile /v1/user',
      connections: 32,
      ceiling: 'engine',
      draw: (random, users) => ({
        path: '/v1/user',
        token: pick(users.typical, random, SAMPLED_USERS).token,
      }),
    },
  ];
}

/**
 * The recurring streams of one typical user after another, so every request is a cache miss
 * (the answer depends only on the user and the day) until every user was asked once: the
 * counterpart of the spending misses (TYPICAL_MIX_MISSES).
 */
function recurringNewUsers(connections: number): Scenario {
  let asked = 0;
  return {
    name: 'recurring, new users',
    connections,
    ceiling: 'engine',
    quick: true,
    draw: (_random, users) => {
      const user = users.typical[asked++ % users.typical.length] as BenchUser;
      return { path: '/v2/users/recurring', token: user.token };
    },
  };
}

/** Run against the small store too: the size-independence comparison. */
export function comparisonScenarios(): Scenario[] {
  return typicalMixes();
}

/**
 * Users active at once in the cached scenario: their 4 answers each (about 47 KB of heap per
 * answer at 10M rows) fit the default 48 MB response cache.
 */
export const HOT_USERS = 200;

/** Every (hot user, variant) once with the default window: the cache's steady state. */
function everyHotDefault(users: Users): DrawnRequest[] {
  return users.typical
    .slice(0, HOT_USERS)
    .flatMap((user) =>
      VARIANT_NAMES.map((variant) => ({ path: spending(variant), token: user.token })),
    );
}

/**
 * The headline scenarios: cache misses first (every request new), then the default window
 * after every (user, variant) was asked once, so each request is a repeat the response cache
 * answers (as for users reloading a dashboard).
 */
function typicalMixes(): Scenario[] {
  const mix = (name: string, connections: number, windows: 'cached' | 'misses'): Scenario => ({
    name,
    connections,
    ceiling: 'engine',
    draw: typicalSpending('mix', windows),
    quick: true,
    ...(windows === 'cached' && connections === 1 ? { prewarm: everyHotDefault } : {}),
  });
  return [
    mix(TYPICAL_MIX_MISSES, 1, 'misses'),
    mix(TYPICAL_MIX_MISSES, 32, 'misses'),
    mix(TYPICAL_MIX, 1, 'cached'),
    mix(TYPICAL_MIX, 32, 'cached'),
  ];
}

// The working set (port/working-set/): a user's first request in a generation reads all the
// user's transactions from the engine, later ones are answered from memory.

export const COLD_PAGE = 'cold page (50)';
export const COLD_MISS = 'cold spending miss';
export const WARM_PAGE = 'warm page (50)';
export const WARM_MISS = 'warm spending miss';
export const ZIPF_MIX = 'Zipf mix, pages and misses';

/** A request of one user's: random draws what varies (a spending miss's window). */
type UserRequest = (user: BenchUser, random: () => number) => DrawnRequest;

const PAGE = '/v2/users/transactions?page=1&page_size=50';
const page: UserRequest = (user) => ({ path: PAGE, token: user.token });
/** A spending cache miss of the user: a random variant over a new window. */
const spendingMiss: UserRequest = (user, random) => ({
  path: newWindow(pick(VARIANT_NAMES, random), random),
  token: user.token,
});

/** Typical users no earlier request of the phase named: the server has not read them yet. */
const untouched = (users: Users, touched: ReadonlySet<string>) =>
  users.typical.filter((user) => !touched.has(user.token)).length;

/** A typical user no earlier request named, from a random place in the (shuffled) list on. */
function coldUser(random: () => number, users: Users, touched: ReadonlySet<string>): BenchUser {
  const { typical } = users;
  const start = Math.floor(random() * typical.length);
  for (let step = 0; step < typical.length; step++) {
    const user = typical[(start + step) % typical.length] as BenchUser;
    if (!touched.has(user.token)) return user;
  }
  throw new Error('every typical user was asked for already: no cold user left');
}

/**
 * Picks a rank 0..count-1 with probability proportional to 1 / (rank + 1)^exponent: a few
 * users very often, most rarely, as real traffic is.
 */
function zipf(count: number, exponent: number): (random: () => number) => number {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let rank = 0; rank < count; rank++) {
    total += 1 / (rank + 1) ** exponent;
    cumulative[rank] = total;
  }
  return (random) => {
    const target = random() * total;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}

/**
 * Cold: every request a user the server has not read (the first of the user in this
 * generation), spread over all typical users; the engine ceiling is the server's read of them.
 * Warm: the first SAMPLED_USERS users, each asked once before (unmeasured, the same kind of
 * request), then again. Zipf: pages and spending misses half and half, users by Zipf rank over
 * all typical users. Cold scenarios come first, while nearly every user is still unread.
 */
function workingSetScenarios(): Scenario[] {
  const cold = (name: string, request: UserRequest, quick: boolean): Scenario => ({
    name,
    connections: 1,
    ceiling: 'engine',
    draw: (random, users, touched) => request(coldUser(random, users, touched), random),
    supply: untouched,
    quick,
  });
  const warm = (
    name: string,
    connections: number,
    request: UserRequest,
    quick: boolean,
  ): Scenario => ({
    name,
    connections,
    ceiling: 'engine',
    draw: (random, users) => request(pick(users.typical, random, SAMPLED_USERS), random),
    prewarm: (users) => {
      const random = seededRandom(7);
      return users.typical.slice(0, SAMPLED_USERS).map((user) => request(user, random));
    },
    quick,
  });
  let ranks: { count: number; draw: (random: () => number) => number } | null = null;
  return [
    cold(COLD_PAGE, page, true),
    cold(COLD_MISS, spendingMiss, false),
    warm(WARM_PAGE, 1, page, false),
    warm(WARM_PAGE, 32, page, true),
    warm(WARM_MISS, 1, spendingMiss, true),
    warm(WARM_MISS, 32, spendingMiss, false),
    {
      name: ZIPF_MIX,
      connections: 32,
      ceiling: 'engine',
      draw: (random, users) => {
        const count = users.typical.length;
        if (ranks?.count !== count) ranks = { count, draw: zipf(count, 1) };
        // Ranked from the end of the list, so the most frequent users are not the warm
        // scenarios' ones: the hit rate is the mix's own.
        const user = users.typical[count - 1 - ranks.draw(random)] as BenchUser;
        return random() < 0.5 ? page(user, random) : spendingMiss(user, random);
      },
      quick: true,
    },
  ];
}

/** A fast, seedable generator (mulberry32): independent-looking streams even for seeds 1, 2, 3. */
export function seededRandom(seed: number): () => number {
  let state = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
