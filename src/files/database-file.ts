/**
 * DuckDB files opened under a catalog name of build-db's choosing. DuckDB names the catalog of
 * the file an instance opens after the file (`store.duckdb` is `store`, a temp file
 * `.delta.duckdb.build-1-ab.tmp` is `delta`), and the SQL of ingest names catalogs (`staging`,
 * `store`, `out`, `source`) and schemas (`cur`, `want`, `delta`): a store named like one of
 * them made every load fail. Here the instance lives in memory and every file is attached
 * under a fixed name, so no file name ever becomes a catalog name.
 */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { sqlString } from '../sql/literals.ts';
import { newSpillFolder, removeSpillFolder } from './spill-folder.ts';

export interface DatabaseFile {
  conn: DuckDBConnection;
  /** Closes the connection and the instance (the file is checkpointed as it is detached); once. */
  close(): void;
}

export interface OpenOptions {
  readOnly?: boolean;
  /** Where a read-only file's instance spills, into a folder of its own (spill-folder.ts). */
  spillBase?: string;
}

/**
 * Opens the DuckDB file at `path` as the catalog `catalog`, the connection's default (unqualified
 * names resolve there). A writable file spills to `<path>.tmp`, where DuckDB would spill for
 * the file itself (and where removeDatabaseFiles looks): every writer's path is a temp path of
 * its own. A read-only one (several may read one file at once) spills into a folder of its
 * own: an instance in memory would spill to `.tmp` in the working folder, every instance of
 * every process started there into the same one.
 */
export async function openDatabaseFile(
  path: string,
  catalog: string,
  options: OpenOptions = {},
): Promise<DatabaseFile> {
  const spillFolder = options.readOnly ? await newSpillFolder(options.spillBase) : `${path}.tmp`;
  const instance = await DuckDBInstance.create(':memory:', { temp_directory: spillFolder });
  let conn: DuckDBConnection | undefined;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    conn?.closeSync();
    instance.closeSync();
    if (options.readOnly) removeSpillFolder(spillFolder);
  };
  try {
    conn = await instance.connect();
    await conn.run(
      `ATTACH ${sqlString(path)} AS ${catalog}${options.readOnly ? ' (READ_ONLY)' : ''}`,
    );
    await conn.run(`USE ${catalog}`);
    return { conn, close };
  } catch (error) {
    close();
    throw error;
  }
}
