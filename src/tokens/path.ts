import { basename, dirname, join, resolve } from 'node:path';

/** The token store beside an analytics store: `finance.duckdb` -> `finance.tokens.duckdb`. */
export function tokensPathFor(databasePath: string): string {
  const path = resolve(databasePath);
  const name = basename(path).replace(/\.duckdb$/, '');
  return join(dirname(path), `${name}.tokens.duckdb`);
}
