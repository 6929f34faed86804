/**
 * What a killed build or apply of a DuckDB store leaves: its temp files beside the store (a
 * build's scratch database, an apply's copy of the store), cleared by the next one.
 */
import { removeStaleTemps } from '../../files/publish.ts';

/** Removes what a killed build or apply left beside `target`, saying so when there was any. */
export async function removeInterruptedBuilds(
  target: string,
  progress: (line: string) => void,
): Promise<void> {
  const stale = await removeStaleTemps(target);
  if (stale.paths.length > 0) {
    progress(
      `removed ${stale.paths.length} file(s) left by an interrupted build (${(stale.bytes / 1048576).toFixed(1)} MiB)`,
    );
  }
}
