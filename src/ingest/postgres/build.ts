/**
 * build-db for the sharded PostgreSQL cluster: the same validation and derived columns as the
 * DuckDB store (the input is built into a scratch DuckDB file first, so every `file:line:
 * reason` is the same), then loaded into the cluster as a new generation and published
 * atomically (ingest/postgres/load.ts). The input's access_tokens join the coordinator's
 * token table; tokens minted before are kept.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchFolder } from '../../engines/duckdb/files.ts';
import { loadTokens } from '../../engines/duckdb/token-file.ts';
import { type BuildResult, buildStore } from '../build.ts';
import { loadGeneration } from './load.ts';

export interface PostgresBuildOptions {
  sourceDir: string;
  databaseUrl: string;
  allowEmpty?: boolean;
  onProgress?: (line: string) => void;
}

/** Is this `--database` value a PostgreSQL connection URL (rather than a DuckDB file)? */
export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value);

export async function buildPostgresStore(options: PostgresBuildOptions): Promise<BuildResult> {
  // Named after this process: a later load removes the folder of a killed one.
  const scratch = await scratchFolder('finance-build-');
  try {
    const duckdbPath = join(scratch, 'finance.duckdb');
    const tokensPath = join(scratch, 'finance.tokens.duckdb');
    const built = await buildStore({
      sourceDir: options.sourceDir,
      databasePath: duckdbPath,
      tokensPath,
      allowEmpty: options.allowEmpty,
      onProgress: options.onProgress,
    });
    options.onProgress?.('loading the cluster');
    await loadGeneration({
      duckdbPath,
      databaseUrl: options.databaseUrl,
      generation: built.generation,
      source: options.sourceDir,
      scratchDir: scratch,
      tokens: await loadTokens(tokensPath),
      onProgress: options.onProgress,
    });
    return built;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
