/**
 * build-db for the sharded PostgreSQL cluster: the same validation and derived columns as the
 * DuckDB store (the input is built into a scratch DuckDB file first, so every `file:line:
 * reason` is the same), then loaded into the cluster as a new generation and published
 * atomically (ingest/postgres/load.ts). The input's access_tokens join the coordinator's
 * token table; tokens minted before are kept.
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { scratchFolder } from '../../files/publish.ts';
import { loadTokens } from '../../tokens/token-file.ts';
import { type ApplyResult, DEFAULT_LOG_SPAN, findChangeInputs, type LogSpan } from '../changes.ts';
import { type BuildResult, buildStore } from '../duckdb/build.ts';
import { seconds } from '../progress.ts';
import { applyClusterChanges } from './changes.ts';
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

export interface PostgresApplyOptions {
  changesDir: string;
  databaseUrl: string;
  keepLog?: LogSpan;
  onProgress?: (line: string) => void;
}

/** Applies a change set to the cluster as a new generation (ingest/postgres/changes.ts). */
export async function applyPostgresChanges(options: PostgresApplyOptions): Promise<ApplyResult> {
  const started = performance.now();
  const changesDir = resolve(options.changesDir);
  const inputs = await findChangeInputs(changesDir);
  const scratch = await scratchFolder('finance-changes-');
  try {
    const result = await applyClusterChanges({
      databaseUrl: options.databaseUrl,
      source: changesDir,
      inputs,
      keepLog: options.keepLog ?? DEFAULT_LOG_SPAN,
      scratchDir: scratch,
      onProgress: options.onProgress,
    });
    if (!result.published) return result;
    const { added, modified, removed, users } = result.summary.log;
    options.onProgress?.(
      `applied ${changesDir} to the cluster in ${seconds(started)}: transactions ${added} added, ${modified} modified, ${removed} removed, over ${users} users`,
    );
    return result;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
