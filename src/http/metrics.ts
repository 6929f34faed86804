/**
 * Prometheus metrics, served on their own port (METRICS_PORT) so they are never exposed on
 * the public API: request rate and latency by route and status, store query time by
 * outcome, the store generation and swaps, and the process defaults (event loop, memory).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type MemoryPlan, residentFromFiles } from '../memory-plan.ts';
import type { ReloadOutcome } from '../port/hot-swap.ts';
import type { QueryOutcome } from '../port/read-port.ts';
import type { WorkingSetStats } from '../port/working-set/cache.ts';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly refused = new Counter({
    name: 'http_requests_refused_total',
    help: 'Requests refused before any work, by reason (rate_limit, auth_failures, concurrency, queue_full, shed)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly queryTime = new Histogram({
    name: 'store_query_duration_seconds',
    help: 'Time of one store query, by outcome (ok, error, timeout, rejected)',
    labelNames: ['outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  private readonly generation = new Gauge({
    name: 'store_generation_info',
    help: 'The generation of the store serving new requests (value is always 1)',
    labelNames: ['generation'] as const,
    registers: [this.registry],
  });
  private readonly reloads = new Counter({
    name: 'store_reloads_total',
    help: 'Store reload attempts by outcome (swapped, unchanged, refused)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** The working set's figures, read when scraped (port/working-set/). */
  observeWorkingSet(stats: () => WorkingSetStats): void {
    const gauge = (name: string, help: string, read: (s: WorkingSetStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read(stats()));
        },
      });
    gauge('working_set_bytes', 'Bytes of users’ transactions held in memory', (s) => s.bytes);
    gauge('working_set_users', 'Users held in the working set', (s) => s.users);
    gauge('working_set_hits', 'Reads of a user answered from memory, since start', (s) => s.hits);
    gauge(
      'working_set_misses',
      'Reads of a user that went to the store (once per user and generation), since start',
      (s) => s.misses,
    );
    gauge(
      'working_set_evictions',
      'Users dropped to stay within WORKING_SET_MB',
      (s) => s.evictions,
    );
  }

  /**
   * The memory budget and its parts (memory-plan.ts): each part's limit, and what each holds
   * now, read when scraped. What the parts hold adds up to the resident memory: the working
   * set's ledgers, DuckDB's buffers, V8's heap (the response cache's answers are in it), the
   * pages mapped from files (Node's, DuckDB's and the libraries' code: no part of the budget,
   * and the kernel can drop them under a container's limit and read them again), and `other`,
   * what none of them counts.
   */
  observeMemory(
    plan: MemoryPlan,
    held: () => Promise<{ workingSet: number; engine: number; responseCache: number }>,
  ): void {
    new Gauge({
      name: 'memory_budget_bytes',
      help: 'The memory budget (MEMORY_LIMIT_MB, else the container’s limit, else 512 MiB)',
      registers: [this.registry],
      collect() {
        this.set(plan.budget);
      },
    });
    new Gauge({
      name: 'memory_part_limit_bytes',
      help: 'Each part of the memory budget’s limit: working_set, response_cache, duckdb, heap',
      labelNames: ['part'] as const,
      registers: [this.registry],
      collect() {
        this.set({ part: 'working_set' }, plan.workingSet);
        this.set({ part: 'response_cache' }, plan.responseCache);
        this.set({ part: 'duckdb' }, plan.duckdb);
        this.set({ part: 'heap' }, getHeapStatistics().heap_size_limit);
      },
    });
    new Gauge({
      name: 'memory_part_used_bytes',
      help: 'What each part holds now: working_set, duckdb, heap (the response cache in it), mapped_files (code mapped from files, which the kernel can drop and read again), other (none of them), total (resident memory)',
      labelNames: ['part'] as const,
      registers: [this.registry],
      async collect() {
        const now = await held().catch(() => ({ workingSet: 0, engine: 0, responseCache: 0 }));
        const { rss, heapTotal } = process.memoryUsage();
        const files = residentFromFiles();
        this.set({ part: 'working_set' }, now.workingSet);
        this.set({ part: 'response_cache' }, now.responseCache);
        this.set({ part: 'duckdb' }, now.engine);
        this.set({ part: 'heap' }, heapTotal);
        this.set({ part: 'mapped_files' }, files);
        this.set(
          { part: 'other' },
          Math.max(0, rss - now.workingSet - now.engine - heapTotal - files),
        );
        this.set({ part: 'total' }, rss);
      },
    });
  }

  /** Admission's queue (admission.ts): the requests running and those waiting their turn. */
  observeAdmission(queue: { readonly running: number; readonly waiting: number }): void {
    new Gauge({
      name: 'http_requests_running',
      help: 'Requests running now (at most MAX_RUNNING_REQUESTS)',
      registers: [this.registry],
      collect() {
        this.set(queue.running);
      },
    });
    new Gauge({
      name: 'http_requests_waiting',
      help: 'Requests waiting their turn to run now, each in its client’s line',
      registers: [this.registry],
      collect() {
        this.set(queue.waiting);
      },
    });
  }

  readonly observeQuery = (seconds: number, outcome: QueryOutcome): void => {
    this.queryTime.observe({ outcome }, seconds);
  };

  readonly observeRefusal = (reason: string): void => {
    this.refused.inc({ reason });
  };

  setGeneration(generation: string): void {
    this.generation.reset();
    this.generation.set({ generation }, 1);
  }

  readonly observeReload = (outcome: ReloadOutcome, generation: string): void => {
    this.reloads.inc({ outcome });
    this.setGeneration(generation);
  };

  /** Counts every response; unmatched URLs share one label so a scanner cannot blow up cardinality. */
  readonly plugin = fp(async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      };
      this.requests.inc(labels);
      this.latency.observe(labels, reply.elapsedTime / 1000);
    });
  });
}

/** `GET /metrics` in the Prometheus text format; anything else is 404. */
export async function startMetricsServer(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
