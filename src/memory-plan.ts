/**
 * The process's memory as one budget (docs/deployment.md, "Memory"): MEMORY_LIMIT_MB, else the
 * container's memory limit (its cgroup), else 512 MiB. The parts are sized from it unless set
 * on their own: the working set (WORKING_SET_MB), the response cache (RESPONSE_CACHE_MB),
 * DuckDB's memory limit (DUCKDB_MEMORY_LIMIT) and V8's heap (--max-old-space-size, which the
 * process sets on itself at start: src/main.ts), with the rest left to what none of them
 * counts (Node and V8's own code and young generation, DuckDB's instance, thread stacks, the
 * allocator's slack). A configuration whose parts do not fit is refused at start with the one
 * line that says what fits, rather than killed later by the kernel or by V8.
 */
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

const MIB = 1024 * 1024;

/** The budget without a setting or a container limit. */
export const DEFAULT_MEMORY_LIMIT_MB = 512;

/**
 * Shares of the budget for the parts not set on their own. Measured at 512 MiB on the 10,000-
 * user store (docs/performance.md): the heap peaked at about 100 MiB with 32 MiB of cached
 * answers in it, and the rest, outside every part, at 90 to 120 MiB of the process's own,
 * besides the code mapped from files (residentFromFiles), which the budget leaves out.
 */
const SHARES = {
  /** On DuckDB; its heaviest analyses (a user of 500,000 transactions) need 128 MiB. */
  duckdb: 0.25,
  /** The working set: beside DuckDB, or in front of the cluster (no DuckDB here). */
  workingSet: 0.1875,
  workingSetWithoutDuckDb: 0.4375,
  responseCache: 0.0625,
  /** V8's heap, old and young generations together. */
  heap: 0.3125,
} as const;

/** V8's young generation in Node 22 (three 16 MiB semi-spaces): the heap beyond its old one. */
export const YOUNG_GENERATION = 48 * MIB;

/** What the heap holds besides the cached answers: the requests running, the app itself. */
const HEAP_BASE = 80 * MIB;

/** Left to what no part counts, at least. */
const UNCOUNTED = 96 * MIB;

export type BudgetSource = 'MEMORY_LIMIT_MB' | 'container' | 'default';

export interface MemoryPlan {
  budget: number;
  source: BudgetSource;
  workingSet: number;
  responseCache: number;
  /** DuckDB's memory limit; 0 in front of the cluster. */
  duckdb: number;
  /** V8's heap limit, old and young generations (--max-old-space-size is it less the young). */
  heap: number;
}

export interface MemorySettings {
  MEMORY_LIMIT_MB?: number | undefined;
  WORKING_SET_MB?: number | undefined;
  RESPONSE_CACHE_MB?: number | undefined;
  /** Bytes. */
  DUCKDB_MEMORY_LIMIT?: number | undefined;
  DATABASE_URL?: string | undefined;
}

/** The cgroup (v2, else v1) memory limit in bytes; null when there is none. */
export function containerMemoryLimit(): number | null {
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    try {
      const text = readFileSync(file, 'utf8').trim();
      if (!/^\d+$/.test(text)) return null; // "max": no limit
      const bytes = Number(text);
      // cgroup v1 says "no limit" with a huge number.
      return bytes > 2 ** 50 ? null : bytes;
    } catch {
      // not this cgroup version
    }
  }
  return null;
}

/**
 * Resident memory mapped from files (RssFile of /proc/self/status): the code of Node, DuckDB and
 * the libraries, about 84 MiB once the server is loaded. No part of the budget counts it: the
 * kernel can drop those pages under a container's limit and read them again. 0 without /proc.
 */
export function residentFromFiles(): number {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return 0;
  }
  return Number(/^RssFile:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

const floorMib = (bytes: number) => Math.floor(bytes / MIB) * MIB;

/** The budget and its parts, each from its own setting or from the budget. */
export function planMemory(
  settings: MemorySettings,
  container: number | null = containerMemoryLimit(),
): MemoryPlan {
  const [budget, source]: [number, BudgetSource] =
    settings.MEMORY_LIMIT_MB !== undefined
      ? [settings.MEMORY_LIMIT_MB * MIB, 'MEMORY_LIMIT_MB']
      : container !== null
        ? [container, 'container']
        : [DEFAULT_MEMORY_LIMIT_MB * MIB, 'default'];
  const onDuckDb = !settings.DATABASE_URL;
  const share = (part: number) => floorMib(budget * part);
  return {
    budget,
    source,
    duckdb: onDuckDb ? (settings.DUCKDB_MEMORY_LIMIT ?? share(SHARES.duckdb)) : 0,
    workingSet:
      settings.WORKING_SET_MB !== undefined
        ? settings.WORKING_SET_MB * MIB
        : share(onDuckDb ? SHARES.workingSet : SHARES.workingSetWithoutDuckDb),
    responseCache:
      settings.RESPONSE_CACHE_MB !== undefined
        ? settings.RESPONSE_CACHE_MB * MIB
        : share(SHARES.responseCache),
    heap: Math.max(YOUNG_GENERATION + HEAP_BASE + share(SHARES.responseCache), share(SHARES.heap)),
  };
}

const mib = (bytes: number) => `${Math.round(bytes / MIB)} MiB`;

/**
 * Why the plan cannot run in V8's heap limit `heapLimit` (bytes, old and young generations),
 * or null. The heap must hold the cached answers and what requests need; the parts together
 * must leave room in the budget for what none of them counts.
 */
export function memoryPlanProblem(plan: MemoryPlan, heapLimit: number): string | null {
  const heapNeed = YOUNG_GENERATION + HEAP_BASE + plan.responseCache;
  if (heapLimit < heapNeed) {
    return `the V8 heap limit (${mib(heapLimit)}) is below what RESPONSE_CACHE_MB (${mib(plan.responseCache)}) and the requests need: give the heap at least ${mib(heapNeed)} (--max-old-space-size=${Math.ceil((heapNeed - YOUNG_GENERATION) / MIB)}) or the cache at most ${mib(Math.max(0, heapLimit - YOUNG_GENERATION - HEAP_BASE))}`;
  }
  const parts = plan.workingSet + plan.responseCache + plan.duckdb + heapLimit;
  const room = plan.budget - UNCOUNTED;
  if (parts > room) {
    const over = parts - room;
    return `the memory parts (working set ${mib(plan.workingSet)}, response cache ${mib(plan.responseCache)}, DuckDB ${mib(plan.duckdb)}, V8 heap ${mib(heapLimit)}) need ${mib(parts + UNCOUNTED)} with what none of them counts, over the ${mib(plan.budget)} budget (${budgetName(plan.source)}): lower them by ${mib(over)} (WORKING_SET_MB fits at most ${mib(Math.max(0, plan.workingSet - over))}) or raise MEMORY_LIMIT_MB`;
  }
  return null;
}

function budgetName(source: BudgetSource): string {
  return source === 'MEMORY_LIMIT_MB'
    ? 'MEMORY_LIMIT_MB'
    : source === 'container'
      ? "the container's memory limit"
      : `the default, ${DEFAULT_MEMORY_LIMIT_MB} MiB`;
}

/** V8's heap limit now (its old generation and young generation together). */
export function heapLimit(): number {
  return getHeapStatistics().heap_size_limit;
}

/** The --max-old-space-size (MiB) that gives V8 the plan's heap. */
export const oldSpaceMib = (plan: MemoryPlan) =>
  Math.max(16, Math.floor((plan.heap - YOUNG_GENERATION) / MIB));

/**
 * The settings that size V8's heap (the budget and the response cache), read from `env` before
 * the configuration is loaded: a value config.ts would refuse is left out here, and refused by
 * it once the process runs with its heap.
 */
export function heapSettings(env: NodeJS.ProcessEnv): MemorySettings {
  const whole = (value: string | undefined) =>
    value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
  return {
    MEMORY_LIMIT_MB: whole(env.MEMORY_LIMIT_MB),
    RESPONSE_CACHE_MB: whole(env.RESPONSE_CACHE_MB),
    DATABASE_URL: env.DATABASE_URL || undefined,
  };
}

/**
 * Whether the process was started with its heap size given (`--max-old-space-size` on the
 * command line or in NODE_OPTIONS): then it is the operator's, and only checked.
 */
export function heapSizeGiven(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) =>
    /^--max[-_]old[-_]space[-_]size(=|$)/.test(arg),
  );
}
