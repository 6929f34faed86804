/**
 * The coordinator's own tables, which the runtime reads (the current generation) and writes
 * (minted tokens); the loader creates them too.
 */
/** The coordinator's own tables, shared by every generation (created when missing). */
export const COORDINATOR_META_DDL = [
  `CREATE TABLE IF NOT EXISTS public.store_meta (
     singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     generation text NOT NULL,
     schema_name text NOT NULL,
     built_at timestamp NOT NULL,
     source text NOT NULL,
     platform_rules text,
     shards integer NOT NULL)`,
  // Added with store formats (contract/store-format.ts); a coordinator loaded before has none.
  'ALTER TABLE public.store_meta ADD COLUMN IF NOT EXISTS format_version integer',
  `CREATE TABLE IF NOT EXISTS public.generations (
     schema_name text PRIMARY KEY,
     published_at timestamp NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'))`,
  `CREATE TABLE IF NOT EXISTS public.access_tokens (
     token_hash text COLLATE "C" PRIMARY KEY,
     user_id text COLLATE "C" NOT NULL,
     name text,
     created_at timestamp NOT NULL,
     expires_at timestamp,
     revoked_at timestamp)`,
  'CREATE INDEX IF NOT EXISTS access_tokens_user ON public.access_tokens (user_id, created_at)',
];

/**
 * The current generation, its schema, its shard count and its format (every column: a
 * coordinator loaded before store formats has no format_version); no row before the first load.
 */
export const CURRENT_GENERATION_SQL = 'SELECT * FROM public.store_meta';
