/**
 * Preloaded into a server process by the fault suites (`storeOpensEnv` in faults.ts): every
 * DuckDB file the process opens is logged as a JSON line at info, so a test counts how often
 * the store file was opened. Plain JavaScript: it loads before tsx does.
 */
import { DuckDBInstance } from '@duckdb/node-api';

const create = DuckDBInstance.create;
DuckDBInstance.create = function (path, options) {
  process.stdout.write(`${JSON.stringify({ level: 30, msg: 'test: duckdb file opened', path })}\n`);
  return create.call(this, path, options);
};
