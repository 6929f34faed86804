import { CURRENT_GENERATION_SQL } from './meta.ts';
import type { PgPool } from './pool.ts';

/**
 * Calls `onPublish` when the cluster's published generation differs from `current()`: the
 * coordinator's one-row `store_meta` is read every `pollMs` (a cheap local query), so every
 * replica notices a new generation within that time. A failed read is tried again next time.
 */
export function watchGeneration(
  pool: PgPool,
  current: () => string,
  onPublish: () => void,
  pollMs = 500,
): { close(): void } {
  let checking = false;
  const timer = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      const [row] = await pool.query<{ generation: string }>(CURRENT_GENERATION_SQL);
      if (row && row.generation !== current()) onPublish();
    } catch {
      // The coordinator is unreachable now; readiness reports it, the next poll retries.
    } finally {
      checking = false;
    }
  }, pollMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
