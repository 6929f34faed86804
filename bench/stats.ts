/** Figures of one measured run, the same shape for HTTP load and for the engine ceiling. */
export interface Measured {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Milliseconds, from exact per-request timings (not a histogram's whole milliseconds). */
  p50: number;
  p99: number;
  mean: number;
  /** Non-2xx answers, socket errors and timeouts. */
  errors: number;
  /** Peak resident set of the measured process during the run, MiB (VmHWM). */
  peakRssMiB: number | null;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summarize(
  latencies: number[],
  seconds: number,
  errors: number,
  peakRssMiB: number | null,
): Measured {
  const sorted = Float64Array.from(latencies).sort();
  const list = Array.from(sorted);
  const total = list.reduce((sum, value) => sum + value, 0);
  return {
    requests: list.length,
    seconds,
    requestsPerSecond: list.length / seconds,
    p50: percentile(list, 50),
    p99: percentile(list, 99),
    mean: list.length ? total / list.length : Number.NaN,
    errors,
    peakRssMiB,
  };
}
