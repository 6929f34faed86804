/**
 * The cluster's published generation: where it stands in its lineage (store_meta), and naming
 * a new one current, with its token changes, in one coordinator transaction.
 */
import type pg from 'pg';
import { STORE_FORMAT_VERSION, storeFormatProblem } from '../../contract/store-format.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../../sql/platform.ts';
import type { StoredToken } from '../../tokens/store.ts';
import { BuildInputError } from '../problems.ts';
import { ServerLostError } from './client.ts';

/** The published generation's place in its lineage (store_meta); null before the first load. */
export interface ClusterState {
  generation: string;
  schema: string;
  lineage: string | null;
  dataSchema: string | null;
  seq: number;
  logFloor: number;
  /** Why this code may not add to the current generation (another store format), or null. */
  formatProblem: string | null;
}

export async function clusterState(coordinator: pg.ClientBase): Promise<ClusterState | null> {
  const { rows } = await coordinator.query<{
    generation: string;
    schema_name: string;
    lineage: string | null;
    data_schema: string | null;
    seq: number | null;
    log_floor: number | null;
    format_version: number | null;
    platform_rules: string | null;
  }>(
    `SELECT generation, schema_name, lineage, data_schema, seq, log_floor, format_version,
       platform_rules FROM public.store_meta`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    generation: row.generation,
    schema: row.schema_name,
    lineage: row.lineage,
    dataSchema: row.data_schema,
    seq: row.seq ?? 0,
    logFloor: row.log_floor ?? 0,
    formatProblem: storeFormatProblem(row, PLATFORM_RULES_FINGERPRINT),
  };
}

/** What a publish names: the generation, its place in the lineage, and the token changes. */
export interface Publication {
  generation: string;
  schema: string;
  lineage: string;
  dataSchema: string;
  seq: number;
  logFloor: number;
  source: string;
  shards: number;
  tokens: readonly StoredToken[];
  /** Token hashes a change set removes: revoked. */
  revokedTokens: readonly string[];
  /** For a change set: its row in public.change_sets, and the load marker cleared. */
  changeSet?: boolean;
}

/**
 * The coordinator went away while committing the transaction that names a generation current:
 * whether that generation is published cannot be known until the coordinator is back.
 */
export class PublishUnknownError extends Error {
  override readonly name = 'PublishUnknownError';
  constructor(generation: string, cause: ServerLostError) {
    super(
      `${cause.message}, while generation ${generation} was being published: whether it was is unknown; it was if public.store_meta names it once the coordinator is back (the next load clears what this one wrote if not)`,
      { cause },
    );
  }
}

/** A load that failed before it published anything. */
class NotPublishedError extends Error {
  override readonly name = 'NotPublishedError';
}

/**
 * A load's failure in words that say what was published: nothing, before the publication.
 * `serving` is the generation the cluster serves once the load has begun (null: none yet),
 * undefined before: a refusal to begin keeps its own words, unless a server was lost. Refused
 * input and an unknown publication keep their own words too.
 */
export function unpublished(error: unknown, serving: string | null | undefined): unknown {
  if (error instanceof BuildInputError || error instanceof PublishUnknownError) return error;
  if (serving === undefined && !(error instanceof ServerLostError)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const still =
    serving === undefined
      ? ''
      : serving === null
        ? ': the cluster holds no store yet (the next load clears what this one wrote)'
        : `: the cluster still serves generation ${serving} (the next load clears what this one wrote)`;
  return new NotPublishedError(`${reason}. Nothing was published${still}`, { cause: error });
}

/**
 * What a failure after the publication means: the generation is published; what was left to
 * do (dropping the generations it replaces) is done by the next load.
 */
export function afterPublication(generation: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `generation ${generation} is published, but dropping the generations before it failed (${reason}); the next load drops them`;
}

/** Names the new generation current, in one coordinator transaction. */
export async function publish(coordinator: pg.Client, publication: Publication): Promise<void> {
  await coordinator.query('BEGIN');
  try {
    await coordinator.query(
      `INSERT INTO public.store_meta (generation, schema_name, built_at, source, platform_rules,
         shards, lineage, data_schema, seq, log_floor, format_version)
       VALUES ($1, $2, now() AT TIME ZONE 'UTC', $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (singleton) DO UPDATE SET generation = excluded.generation,
         schema_name = excluded.schema_name, built_at = excluded.built_at,
         source = excluded.source, platform_rules = excluded.platform_rules,
         shards = excluded.shards, lineage = excluded.lineage,
         data_schema = excluded.data_schema, seq = excluded.seq, log_floor = excluded.log_floor,
         format_version = excluded.format_version`,
      [
        publication.generation,
        publication.schema,
        publication.source,
        PLATFORM_RULES_FINGERPRINT,
        publication.shards,
        publication.lineage,
        publication.dataSchema,
        publication.seq,
        publication.logFloor,
        STORE_FORMAT_VERSION,
      ],
    );
    await coordinator.query(
      'INSERT INTO public.generations (schema_name, data_schema) VALUES ($1, $2)',
      [publication.schema, publication.dataSchema],
    );
    if (publication.changeSet) {
      await coordinator.query(
        `INSERT INTO public.change_sets (data_schema, seq, generation, applied_at, source)
         VALUES ($1, $2, $3, now() AT TIME ZONE 'UTC', $4)`,
        [publication.dataSchema, publication.seq, publication.generation, publication.source],
      );
      await coordinator.query('DELETE FROM public.loading');
    }
    // New hashes are added; a known one keeps its row, except that a revocation is applied.
    for (const token of publication.tokens) {
      await coordinator.query(
        `INSERT INTO public.access_tokens (token_hash, user_id, name, created_at, expires_at, revoked_at)
         VALUES ($1, $2, $3, to_timestamp($4 / 1000.0) AT TIME ZONE 'UTC',
                 to_timestamp($5 / 1000.0) AT TIME ZONE 'UTC', to_timestamp($6 / 1000.0) AT TIME ZONE 'UTC')
         ON CONFLICT (token_hash) DO UPDATE SET revoked_at = excluded.revoked_at
           WHERE access_tokens.revoked_at IS NULL AND excluded.revoked_at IS NOT NULL`,
        [
          token.tokenHash,
          token.userId,
          token.name,
          token.createdAtMs,
          token.expiresAtMs,
          token.revokedAtMs,
        ],
      );
    }
    if (publication.revokedTokens.length > 0) {
      await coordinator.query(
        `UPDATE public.access_tokens SET revoked_at = now() AT TIME ZONE 'UTC'
         WHERE revoked_at IS NULL AND token_hash = ANY($1::text[])`,
        [publication.revokedTokens],
      );
    }
  } catch (error) {
    await coordinator.query('ROLLBACK').catch(() => {});
    throw error;
  }
  try {
    await coordinator.query('COMMIT');
  } catch (error) {
    if (error instanceof ServerLostError)
      throw new PublishUnknownError(publication.generation, error);
    throw error;
  }
}
