import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { z } from 'zod';
import { tokensPathFor } from './tokens/path.ts';

export const DEFAULT_DATABASE_PATH = 'data/finance.duckdb';

/** The store the CLIs work on when not told: `DATABASE_PATH` (empty counts as unset), as the server. */
export function databasePathFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_PATH || DEFAULT_DATABASE_PATH;
}

/** The token store: `TOKENS_PATH`, else the file beside the analytics store. */
export function tokensPathFromEnv(
  databasePath: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return env.TOKENS_PATH || tokensPathFor(databasePath);
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((value) => isValid(parseISO(value)), 'must be a real calendar date');

/** A whole number of at least `min`; unset, undefined (its default is decided elsewhere). */
const countOf = (min: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min, `must be at least ${min}`);

const wholeNumber = (min: number, fallback: number) => countOf(min).default(fallback);

const positiveInt = (fallback: number) => wholeNumber(1, fallback);

const SIZE_UNITS: Record<string, number> = {
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
};

/** A size in bytes, written as DuckDB reads one: `128MB` (10^6 bytes a MB), `1GiB`. */
const size = (example: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, `must be a size such as ${example}`)
    .transform((value) => {
      const [, amount = '0', unit = 'mb'] = /^([\d.]+)\s*([a-z]+)$/i.exec(value.trim()) ?? [];
      return Math.floor(Number(amount) * (SIZE_UNITS[unit.toLowerCase()] ?? 1));
    });

const fraction = (fallback: number) =>
  z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a number between 0 and 1')
    .transform(Number)
    .default(fallback);

/** A memory bound in bytes, 0 (off) or `auto` (resolved at start-up, src/http/load-shedding.ts). */
const memoryThreshold = z
  .string()
  .regex(/^(auto|\d+)$/i, 'must be a number of bytes, 0 (off) or auto')
  .default('auto')
  .transform((value): number | 'auto' => (/^auto$/i.test(value) ? 'auto' : Number(value)));

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], 'must be true or false')
    .transform((value) => ['true', '1', 'yes', 'on'].includes(value))
    .default(fallback);

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
};

/** Milliseconds, written `60000`, `30s`, `1 minute`, `1h`. */
const duration = (fallback: string) =>
  z
    .string()
    .regex(
      /^\d+\s*(ms|s|sec|seconds?|m|min|minutes?|h|hours?)?$/i,
      'must be a duration such as 60000, 30s, 1 minute or 1h',
    )
    .default(fallback)
    .transform((value) => {
      const [, amount = '0', unit = 'ms'] = /^(\d+)\s*([a-z]*)$/i.exec(value.trim()) ?? [];
      return Number(amount) * (DURATION_UNITS[unit.toLowerCase() || 'ms'] ?? 1);
    })
    .refine((ms) => ms >= 1, 'must be longer than 0');

/**
 * Fastify's trustProxy: `false` (default: the peer address is the client), `true` (trust
 * every hop: only behind a proxy that strips client-sent X-Forwarded-For), a hop count, or a
 * comma list of addresses / CIDR ranges of trusted proxies.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((value, ctx): boolean | number | string[] => {
    const text = value.trim().toLowerCase();
    if (text === 'false' || text === '0') return false;
    if (text === 'true') return true;
    if (/^\d+$/.test(text)) return Number(text);
    const items = text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (items.length > 0 && items.every((item) => /^[0-9a-f.:]+(\/\d{1,3})?$/.test(item))) {
      return items;
    }
    ctx.addIssue({
      code: 'custom',
      message: 'must be true, false, a hop count or a comma list of proxy addresses/CIDRs',
    });
    return z.NEVER;
  });

const envSchema = z
  .object({
    PORT: z
      .string()
      .regex(/^\d+$/, 'must be a port number')
      .transform(Number)
      .refine((n) => n >= 0 && n <= 65535, 'must be between 0 and 65535')
      .default(8000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_PATH: z.string().min(1).default(DEFAULT_DATABASE_PATH),
    /**
     * The coordinator of a sharded PostgreSQL cluster (postgres://...): when set, the API reads
     * it instead of the DuckDB file at DATABASE_PATH.
     */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/i, 'must be a postgres:// or postgresql:// URL')
      .refine((value) => URL.canParse(value), 'must be a valid URL')
      .optional(),
    /** The token store; default: beside DATABASE_PATH (finance.duckdb -> finance.tokens.duckdb). */
    TOKENS_PATH: z.string().min(1).optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    TODAY: isoDate.optional(),
    // Measured on 2 cores (npm run bench): 4 connections of 1 thread answer a third more
    // typical queries than of 2 threads (a second thread mostly waits on a query this small), and
    // the heavy user reads the rollup fast enough alone.
    DB_POOL_SIZE: positiveInt(4),
    DUCKDB_THREADS: positiveInt(1),
    /**
     * The process's memory budget in MiB (memory-plan.ts): default the container's memory
     * limit, else 512. The parts below that are unset are sized from it.
     */
    MEMORY_LIMIT_MB: countOf(64).optional(),
    /** Bytes (as DuckDB reads sizes: KB, MB, GB of 1000; KiB, MiB, GiB of 1024). */
    DUCKDB_MEMORY_LIMIT: size('512MB').optional(),
    /** Spending answers cached per store generation: size in MiB (0: off) and entry bound. */
    RESPONSE_CACHE_MB: countOf(0).optional(),
    RESPONSE_CACHE_ENTRIES: positiveInt(20_000),
    /**
     * The per-user working set (port/working-set/): MiB of users' packed ledgers held in
     * memory (0: off, every answer from the store), and the most transactions a user may have
     * to be held (a user with more is answered by the store).
     */
    WORKING_SET_MB: countOf(0).optional(),
    WORKING_SET_MAX_ROWS: positiveInt(50_000),
    /**
     * Where DuckDB spills when a query outgrows DUCKDB_MEMORY_LIMIT, each instance into a folder
     * of its own (files/spill-folder.ts; default: the OS temp folder's finance-api-duckdb).
     */
    DUCKDB_TEMP_DIRECTORY: z.string().min(1).optional(),
    DUCKDB_MAX_TEMP_SIZE: z
      .string()
      .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'must be a size such as 1GB')
      .default('1GB'),
    /** A query running longer is interrupted and the request answers 503. */
    QUERY_TIMEOUT_MS: positiveInt(10_000),
    /**
     * Store queries waiting for a connection at most, on either engine, queued by client in
     * turn; past it the deepest client's newest query is refused (503 with Retry-After).
     */
    DB_MAX_QUEUE: wholeNumber(0, 256),
    /**
     * Unpaginated lists of more than HEAVY_LIST_ROWS transactions sent at once; one more answers
     * 503 with Retry-After (0: no bound). Each costs a core for seconds and memory as it goes.
     */
    HEAVY_LISTS_MAX: wholeNumber(0, 2),

    /** Requests per token (or per address without a token) per RATE_LIMIT_WINDOW; 0 turns it off. */
    RATE_LIMIT_MAX: wholeNumber(0, 600),
    RATE_LIMIT_WINDOW: duration('1 minute'),
    /** Failed authentications (401) per client address per RATE_LIMIT_WINDOW. */
    RATE_LIMIT_AUTH_FAILURES: wholeNumber(1, 30),
    TRUST_PROXY: trustProxy,

    TLS_CERT_FILE: z.string().min(1).optional(),
    TLS_KEY_FILE: z.string().min(1).optional(),
    /** HSTS max-age sent on HTTPS responses. */
    HSTS_MAX_AGE: wholeNumber(0, 31_536_000),

    /** Slow-client guards: whole request (headers and body), headers alone, idle socket. */
    REQUEST_TIMEOUT_MS: positiveInt(30_000),
    HEADERS_TIMEOUT_MS: positiveInt(10_000),
    CONNECTION_TIMEOUT_MS: positiveInt(60_000),
    KEEP_ALIVE_TIMEOUT_MS: positiveInt(72_000),
    /** A connection whose client takes none of its waiting bytes this long is cut; 0: never. */
    STALLED_READER_MS: wholeNumber(0, 30_000),
    MAX_REQUESTS_PER_SOCKET: wholeNumber(0, 1000),
    /** Open connections beyond this are dropped at once; 0: no bound. */
    MAX_CONNECTIONS: wholeNumber(0, 1024),
    MAX_HEADER_SIZE: wholeNumber(1024, 16_384),
    MAX_URL_LENGTH: wholeNumber(64, 4096),
    MAX_PARAM_LENGTH: wholeNumber(16, 200),

    /**
     * Requests of one client (token, or address without one) running or waiting their turn at
     * once; 0: no bound.
     */
    CLIENT_MAX_IN_FLIGHT: wholeNumber(0, 16),
    /**
     * Requests running at once, whoever's (0: no bound); the others wait their turn, by
     * client (src/http/admission.ts). Measured on 2 cores: see docs/operations.md.
     */
    MAX_RUNNING_REQUESTS: wholeNumber(0, 8),
    /** Requests waiting their turn at most; past it the deepest client's line gives way (429). */
    MAX_WAITING_REQUESTS: positiveInt(1024),
    /** How long a refusal (429, or 503 when shed) is held before it is sent; 0: at once. */
    REFUSAL_DELAY_MS: wholeNumber(0, 1000),
    /**
     * Pressure: past any of these the heaviest clients are shed (503 + Retry-After; see
     * src/http/admission.ts); 0 turns a check off. Event-loop utilisation alone is no
     * pressure (a busy loop may answer fast), so its check is off unless set.
     */
    SHED_MAX_EVENT_LOOP_DELAY_MS: wholeNumber(0, 200),
    SHED_MAX_EVENT_LOOP_UTILIZATION: fraction(0),
    /** Bytes, 0 (off) or auto: 90% of V8's heap limit. */
    SHED_MAX_HEAP_BYTES: memoryThreshold,
    /** Bytes, 0 (off) or auto: 90% of the memory budget (MEMORY_LIMIT_MB). */
    SHED_MAX_RSS_BYTES: memoryThreshold,
    SHED_SAMPLE_INTERVAL_MS: positiveInt(1000),
    SHED_RETRY_AFTER_S: positiveInt(10),

    /**
     * Event streams (GET /v2/users/events): open at once per token (one more answers 429) and
     * per process (503); a keep-alive comment after this much silence (shorter than
     * CONNECTION_TIMEOUT_MS, or an idle stream would be dropped); a stream's lifetime.
     */
    EVENT_STREAMS_PER_TOKEN: positiveInt(4),
    EVENT_STREAMS_MAX: positiveInt(10_000),
    EVENT_KEEP_ALIVE_MS: positiveInt(15_000),
    EVENT_STREAM_LIFETIME_MS: positiveInt(3_600_000),

    /** Prometheus metrics on their own port (unset: no metrics server). */
    METRICS_PORT: z
      .string()
      .regex(/^\d+$/, 'must be a port number')
      .transform(Number)
      .refine((n) => n >= 0 && n <= 65535, 'must be between 0 and 65535')
      .optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),

    /**
     * Reopen the store when a new file is published at DATABASE_PATH, or a new generation on
     * the cluster at DATABASE_URL (SIGHUP always does).
     */
    STORE_WATCH: bool(true),
    STORE_WATCH_DEBOUNCE_MS: wholeNumber(0, 500),
    /** How often the cluster's published generation is checked, in ms (DATABASE_URL). */
    STORE_POLL_MS: positiveInt(500),
    /** Time allowed for in-flight requests after SIGTERM/SIGINT before a forced exit (code 1). */
    SHUTDOWN_GRACE_MS: positiveInt(8000),
  })
  .superRefine((config, ctx) => {
    if (config.EVENT_KEEP_ALIVE_MS >= config.CONNECTION_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['EVENT_KEEP_ALIVE_MS'],
        message: `must be shorter than CONNECTION_TIMEOUT_MS (${config.CONNECTION_TIMEOUT_MS}): an event stream silent that long is dropped`,
      });
    }
    if (Boolean(config.TLS_CERT_FILE) !== Boolean(config.TLS_KEY_FILE)) {
      const missing = config.TLS_CERT_FILE ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither',
      });
    }
  });

export type Config = z.output<typeof envSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const NAMES = new Set(Object.keys(envSchema.shape));

/** Reads and validates the environment; empty variables count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => NAMES.has(name) && value !== ''),
  );
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) =>
      `${issue.path.join('.')}=${JSON.stringify(present[String(issue.path[0])] ?? null)}: ${issue.message}`,
  );
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}
