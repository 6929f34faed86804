/**
 * Load shedding that sheds the clients causing the load, not everyone.
 *
 * PressureMonitor samples what hurts every client at once: the event loop's delay (every
 * request waits that long before any of its code runs), the V8 heap (past its limit the
 * process dies), the resident set (past the memory budget, the container's limit when there is
 * one, the kernel kills it) and the store's queue (full: it refused work, or stayed full, since the last sample). A loop
 * that is merely busy, answering quickly, is not pressure: event-loop utilisation alone sheds
 * a server that is busy but fast, so it only counts when SHED_MAX_EVENT_LOOP_UTILIZATION is
 * set.
 *
 * Under pressure only a client holding more than its fair share of the requests in flight is
 * shed (admission.ts, with the admission queue's counts per client: port/fair-queue.ts,
 * isHeavy): one that already has requests running or waiting, at least as many as the mean of
 * the clients that have some. A client that waits for each answer never has one in flight
 * when it asks, so it is never shed, however the floods around it come and go; a client with
 * fewer than the others is served while the deepest are refused. A client that floods one
 * request at a time is bounded by its rate limit, not here.
 */
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { residentFromFiles } from '../memory-plan.ts';

export interface PressureThresholds {
  /** Mean event-loop delay (ms) over a sample; 0 turns the check off. */
  maxEventLoopDelayMs: number;
  /** Event-loop utilisation (0-1) over a sample; 0 (the default) turns the check off. */
  maxEventLoopUtilization: number;
  maxHeapUsedBytes: number;
  maxRssBytes: number;
}

export interface PressureSample {
  eventLoopDelayMs: number;
  eventLoopUtilization: number;
  heapUsedBytes: number;
  rssBytes: number;
  /** The thresholds crossed, e.g. `['eventLoopDelay']`; empty: no pressure. */
  crossed: string[];
}

const RESOLUTION_MS = 10;

/** What else than the process's own figures counts as pressure, each asked once per sample. */
export interface PressureSignals {
  /** The store's queue refused work or stayed full since the last sample (`storeQueue`). */
  storeQueue?: () => boolean;
}

/** Samples the process when `measure` is called; `underPressure` is the last sample's verdict. */
export class PressureMonitor {
  private readonly histogram: IntervalHistogram;
  private elu = performance.eventLoopUtilization();
  private running = false;
  private sampledAt = performance.now();
  private sample: PressureSample = {
    eventLoopDelayMs: 0,
    eventLoopUtilization: 0,
    heapUsedBytes: 0,
    rssBytes: 0,
    crossed: [],
  };

  constructor(
    private readonly thresholds: PressureThresholds,
    private readonly onSample: (sample: PressureSample) => void = () => {},
    private readonly signals: PressureSignals = {},
  ) {
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  }

  get enabled(): boolean {
    const t = this.thresholds;
    return (
      t.maxEventLoopDelayMs > 0 ||
      t.maxEventLoopUtilization > 0 ||
      t.maxHeapUsedBytes > 0 ||
      t.maxRssBytes > 0 ||
      this.signals.storeQueue !== undefined
    );
  }

  get underPressure(): boolean {
    return this.sample.crossed.length > 0;
  }

  get last(): PressureSample {
    return this.sample;
  }

  start(): void {
    if (!this.enabled || this.running) return;
    this.running = true;
    this.histogram.enable();
    this.elu = performance.eventLoopUtilization();
    this.sampledAt = performance.now();
  }

  stop(): void {
    this.running = false;
    this.histogram.disable();
  }

  /** Takes a sample: the delay and utilisation since the last one, the memory now. */
  measure(): PressureSample {
    const t = this.thresholds;
    // The histogram times a timer due every RESOLUTION_MS: what exceeds that is the delay.
    // No timing at all since the last sample means the loop never got to run that timer:
    // it was blocked the whole time.
    const now = performance.now();
    const mean = this.histogram.count > 0 ? this.histogram.mean / 1e6 : now - this.sampledAt;
    const eventLoopDelayMs = Math.max(0, mean - RESOLUTION_MS);
    this.histogram.reset();
    this.sampledAt = now;
    const current = performance.eventLoopUtilization();
    const eventLoopUtilization = performance.eventLoopUtilization(current, this.elu).utilization;
    this.elu = current;
    const { heapUsed, rss } = process.memoryUsage();
    const crossed: string[] = [];
    if (t.maxEventLoopDelayMs > 0 && eventLoopDelayMs > t.maxEventLoopDelayMs) {
      crossed.push('eventLoopDelay');
    }
    if (t.maxHeapUsedBytes > 0 && heapUsed > t.maxHeapUsedBytes) crossed.push('heapUsed');
    if (t.maxRssBytes > 0 && rss > t.maxRssBytes) crossed.push('rss');
    if (t.maxEventLoopUtilization > 0 && eventLoopUtilization > t.maxEventLoopUtilization) {
      crossed.push('eventLoopUtilization');
    }
    if (this.signals.storeQueue?.()) crossed.push('storeQueue');
    this.sample = {
      eventLoopDelayMs,
      eventLoopUtilization,
      heapUsedBytes: heapUsed,
      rssBytes: rss,
      crossed,
    };
    this.onSample(this.sample);
    return this.sample;
  }

  /** For tests: pretend a sample crossed these thresholds until the next real sample. */
  force(crossed: string[]): void {
    this.sample = { ...this.sample, crossed };
  }
}

/** 0 (off), a number of bytes, or `auto`: resolved against this process and its container. */
export type MemoryThreshold = number | 'auto';

/** `auto` for the heap: 90% of V8's heap limit (past the limit the process dies). */
export function heapThreshold(value: MemoryThreshold): number {
  if (value !== 'auto') return value;
  return Math.floor(getHeapStatistics().heap_size_limit * 0.9);
}

/**
 * `auto` for the RSS: 90% of the memory budget (memory-plan.ts), the whole process's, plus the
 * code mapped from files now (residentFromFiles), which the budget does not count.
 */
export function rssThreshold(value: MemoryThreshold, budget: number): number {
  if (value !== 'auto') return value;
  return Math.floor(budget * 0.9) + residentFromFiles();
}
