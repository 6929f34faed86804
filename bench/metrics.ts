/**
 * The server's working set (src/port/working-set/) as its Prometheus gauges show it on the
 * metrics port (src/http/metrics.ts): what it holds, and its reads during a scenario.
 */

/** The gauges, as read at one moment (counts since the server started). */
export interface WorkingSetGauges {
  bytes: number;
  users: number;
  hits: number;
  misses: number;
  evictions: number;
}

/** A scenario's figures: what the working set held after its measured run, and that run's reads. */
export interface WorkingSetRun {
  after: WorkingSetGauges;
  hits: number;
  misses: number;
  /** hits / (hits + misses) during the measured run; null when it read no user's ledger. */
  hitRate: number | null;
  evictions: number;
}

const GAUGES = {
  bytes: 'working_set_bytes',
  users: 'working_set_users',
  hits: 'working_set_hits',
  misses: 'working_set_misses',
  evictions: 'working_set_evictions',
} as const;

/** The gauges, or null when the server shows none (a server without a working set). */
export async function scrapeWorkingSet(metricsUrl: string): Promise<WorkingSetGauges | null> {
  const response = await fetch(`${metricsUrl}/metrics`);
  if (!response.ok) throw new Error(`${metricsUrl}/metrics answered ${response.status}`);
  const text = await response.text();
  const read = (name: string) => {
    const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return match ? Number(match[1]) : null;
  };
  const values = Object.fromEntries(
    Object.entries(GAUGES).map(([field, name]) => [field, read(name)]),
  ) as Record<keyof WorkingSetGauges, number | null>;
  if (Object.values(values).some((value) => value === null)) return null;
  return values as WorkingSetGauges;
}

export function workingSetRun(before: WorkingSetGauges, after: WorkingSetGauges): WorkingSetRun {
  const hits = after.hits - before.hits;
  const misses = after.misses - before.misses;
  return {
    after,
    hits,
    misses,
    hitRate: hits + misses === 0 ? null : hits / (hits + misses),
    evictions: after.evictions - before.evictions,
  };
}
