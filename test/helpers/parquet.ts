/** Parquet inputs for build-db tests, written from CSV files by DuckDB. */
import { rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';

/** Replaces `<table>.csv` by `<table>.parquet` holding the same rows, every column as text. */
export async function csvToParquet(csvPath: string): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const quoted = (path: string) => `'${path.replaceAll("'", "''")}'`;
  try {
    await conn.run(
      `COPY (SELECT * FROM read_csv(${quoted(csvPath)}, all_varchar = true))
       TO ${quoted(csvPath.replace(/\.csv$/, '.parquet'))} (FORMAT parquet)`,
    );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  await rm(csvPath);
}
