/**
 * The coordinator's own tables, which the runtime reads (the current generation) and writes
 * (minted tokens); the loader creates them too.
 */
/** The channel on which the coordinator announces token changes, and its trigger's name. */
export const TOKEN_CHANNEL = 'access_tokens_changed';
export const TOKEN_NOTIFY = 'access_tokens_notify';

/**
 * The coordinator's own tables, shared by every generation (created when missing, and brought
 * up to date on a cluster loaded before store formats and change sets).
 */
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
  // The lineage's data schema, the generation's change set number, the change log's floor.
  `ALTER TABLE public.store_meta ADD COLUMN IF NOT EXISTS lineage text,
     ADD COLUMN IF NOT EXISTS data_schema text, ADD COLUMN IF NOT EXISTS seq integer,
     ADD COLUMN IF NOT EXISTS log_floor integer`,
  `CREATE TABLE IF NOT EXISTS public.generations (
     schema_name text PRIMARY KEY,
     published_at timestamp NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'))`,
  'ALTER TABLE public.generations ADD COLUMN IF NOT EXISTS data_schema text',
  `CREATE TABLE IF NOT EXISTS public.change_sets (
     data_schema text NOT NULL,
     seq integer NOT NULL,
     generation text NOT NULL,
     applied_at timestamp NOT NULL,
     source text NOT NULL,
     PRIMARY KEY (data_schema, seq))`,
  // A change set being written (rows of it may be on the shards, unpublished): the next load
  // clears them first.
  `CREATE TABLE IF NOT EXISTS public.loading (
     singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     data_schema text NOT NULL,
     seq integer NOT NULL)`,
  // The key sync cursors are signed with, for every generation and lineage.
  `CREATE TABLE IF NOT EXISTS public.sync_key (
     singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     key text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS public.access_tokens (
     token_hash text COLLATE "C" PRIMARY KEY,
     user_id text COLLATE "C" NOT NULL,
     name text,
     created_at timestamp NOT NULL,
     expires_at timestamp,
     revoked_at timestamp)`,
  'CREATE INDEX IF NOT EXISTS access_tokens_user ON public.access_tokens (user_id, created_at)',
  // Every change to a token is announced to the replicas, which cache tokens while they hear
  // the announcements (tokens.ts): the changed row's hash, or '' when the table is truncated.
  // Created only when missing, so concurrent mints never replace it under each other.
  `DO $$ BEGIN
     IF to_regprocedure('public.${TOKEN_NOTIFY}()') IS NULL THEN
       CREATE FUNCTION public.${TOKEN_NOTIFY}() RETURNS trigger LANGUAGE plpgsql AS $f$
       BEGIN
         IF TG_OP = 'TRUNCATE' THEN
           PERFORM pg_notify('${TOKEN_CHANNEL}', '');
         ELSE
           IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('${TOKEN_CHANNEL}', OLD.token_hash); END IF;
           IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('${TOKEN_CHANNEL}', NEW.token_hash); END IF;
         END IF;
         RETURN NULL;
       END $f$;
     END IF;
     IF NOT EXISTS (SELECT 1 FROM pg_trigger
                    WHERE tgrelid = 'public.access_tokens'::regclass AND tgname = '${TOKEN_NOTIFY}') THEN
       CREATE TRIGGER ${TOKEN_NOTIFY} AFTER INSERT OR UPDATE OR DELETE ON public.access_tokens
         FOR EACH ROW EXECUTE FUNCTION public.${TOKEN_NOTIFY}();
     END IF;
     IF NOT EXISTS (SELECT 1 FROM pg_trigger
                    WHERE tgrelid = 'public.access_tokens'::regclass AND tgname = '${TOKEN_NOTIFY}_truncate') THEN
       CREATE TRIGGER ${TOKEN_NOTIFY}_truncate AFTER TRUNCATE ON public.access_tokens
         FOR EACH STATEMENT EXECUTE FUNCTION public.${TOKEN_NOTIFY}();
     END IF;
   END $$`,
];

/** Whether the coordinator announces token changes (both triggers present): a boolean `live`. */
export const TOKEN_NOTIFY_PRESENT_SQL = `SELECT count(*) = 2 AS live FROM pg_trigger
  WHERE tgrelid = to_regclass('public.access_tokens')
    AND tgname IN ('${TOKEN_NOTIFY}', '${TOKEN_NOTIFY}_truncate') AND tgenabled <> 'D'`;

/**
 * The current generation, its schema, its shard count and its format (every column: a
 * coordinator loaded before store formats has no format_version); no row before the first load.
 */
export const CURRENT_GENERATION_SQL = 'SELECT * FROM public.store_meta';

/** The generations a lineage's change sets published ($1 its data schema, $2 up to this one). */
export const CHANGE_SETS_SQL = `SELECT seq, generation FROM public.change_sets
  WHERE data_schema = $1 AND seq <= $2 ORDER BY seq`;

/** The current generation's place in its lineage, and the sync cursors' key. */
export const SYNC_STATE_SQL = `SELECT m.lineage, m.data_schema, m.seq, m.log_floor, k.key AS cursor_key
  FROM public.store_meta m LEFT JOIN public.sync_key k ON true`;
