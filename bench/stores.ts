/**
 * Benchmark stores: generated with the fixtures generator and built with build-db, cached under
 * bench/cache/ keyed by their parameters and by a hash of the code that shapes them (generator,
 * builder, schema), so a change of physical layout rebuilds and an unchanged one is reused.
 *
 * Tokens: every user gets one (the cold scenarios read users no earlier request read). Minting
 * them with `npm run token` rewrites the token store per token (measured: about 120 ms each on
 * the quick store, 20 minutes for 10,000 users), so the bench instead writes an
 * access_tokens.csv (hashes only, as mintToken stores them; 10,000 in about 0.1 s) next to
 * symbolic links to the generated CSVs and builds the store once from that.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { generateToken, hashToken } from '../src/tokens/token.ts';

export const ROOT = resolve(import.meta.dirname, '..');
export const CACHE_DIR = join(ROOT, 'bench', 'cache');

export interface StoreSpec {
  /** Short label printed in the table, e.g. `10M`. */
  label: string;
  users: number;
  months: number;
  seed: string;
  heavyUserTransactions: number;
}

export interface BenchUser {
  userId: string;
  token: string;
}

export interface BenchStore {
  spec: StoreSpec;
  databasePath: string;
  /** Set when the phase reads the same data from the PostgreSQL cluster (bench/cluster.ts). */
  databaseUrl?: string;
  /** Every typical user, in a seeded random order: the first N are a sample of N. */
  typical: BenchUser[];
  heavy: BenchUser | null;
  transactions: number;
  sizeBytes: number;
}

type Progress = (line: string) => void;

/** Files whose content decides what the generator writes / what the builder lays out. */
const GENERATOR_FILES = ['tools/demo-data', 'tools/fixtures.ts'];
const BUILDER_FILES = ['src/ingest', 'src/contract', 'src/sql', 'src/files', 'scripts/build-db.ts'];

async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).sort();
  const nested = await Promise.all(names.map((name) => filesUnder(join(path, name))));
  return nested.flat();
}

/** A short hash of the named files' paths and contents. */
export async function codeHash(paths: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const path of paths) {
    for (const file of await filesUnder(join(ROOT, path))) {
      hash.update(file.slice(ROOT.length));
      hash.update(await readFile(file));
    }
  }
  return hash.digest('hex').slice(0, 10);
}

const slug = (value: string) => value.replace(/[^0-9A-Za-z_-]/g, '_');

/** The tools the bench runs, by the file their npm script runs. */
const SCRIPTS = { fixtures: 'tools/fixtures.ts', 'build-db': 'scripts/build-db.ts' } as const;

/** Runs a tool of this project, its stderr forwarded line by line with a prefix. */
async function runScript(
  script: keyof typeof SCRIPTS,
  args: string[],
  progress: Progress,
): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, SCRIPTS[script]), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let tail: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    tail = [...tail.slice(-19), line];
    progress(`  ${script}: ${line}`);
  });
  const code = await new Promise<number | null>((done, fail) => {
    child.once('error', fail);
    child.once('close', done);
  });
  if (code !== 0) {
    throw new Error(`${script} ${args.join(' ')} failed (exit ${code}):\n${tail.join('\n')}`);
  }
  return stdout;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Reads users.csv: ids in file order, and the heavy user's id if there is one. */
async function readUsers(path: string): Promise<{ ids: string[]; heavy: string | null }> {
  const ids: string[] = [];
  let heavy: string | null = null;
  let header = true;
  for await (const line of createInterface({ input: createReadStream(path) })) {
    if (header) {
      header = false;
      continue;
    }
    const [id = '', name = ''] = line.split(',');
    if (!id) continue;
    if (name === 'Heavy User') heavy = id;
    else ids.push(id);
  }
  return { ids, heavy };
}

async function countLines(path: string): Promise<number> {
  let lines = -1;
  for await (const _ of createInterface({ input: createReadStream(path) })) lines++;
  return Math.max(lines, 0);
}

/** A deterministic shuffle, so runs compare like for like. */
function shuffled<T>(items: readonly T[], seed: string): T[] {
  const copy = [...items];
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0) || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

interface StoreManifest {
  typical: BenchUser[];
  heavy: BenchUser | null;
  transactions: number;
}

/** Generates (or reuses) the source CSVs, then builds (or reuses) the store with tokens. */
export async function ensureStore(
  spec: StoreSpec,
  options: { rebuild: boolean; progress: Progress },
): Promise<BenchStore> {
  const { progress } = options;
  const sourceKey = [
    `u${spec.users}`,
    `m${spec.months}`,
    `s${slug(spec.seed)}`,
    `h${spec.heavyUserTransactions}`,
    `g${await codeHash(GENERATOR_FILES)}`,
  ].join('-');
  const sourceDir = join(CACHE_DIR, `source-${sourceKey}`);
  const sourceDone = join(sourceDir, '.complete');
  if (options.rebuild || !(await exists(sourceDone))) {
    await rm(sourceDir, { recursive: true, force: true });
    progress(`[${spec.label}] generating ${spec.users} users into ${sourceDir}`);
    await runScript(
      'fixtures',
      [
        '--users',
        String(spec.users),
        '--months',
        String(spec.months),
        '--seed',
        spec.seed,
        '--heavy-user-transactions',
        String(spec.heavyUserTransactions),
        '--out',
        sourceDir,
      ],
      progress,
    );
    await writeFile(sourceDone, new Date().toISOString());
  } else {
    progress(`[${spec.label}] reusing generated source ${sourceDir}`);
  }

  const storeDir = join(CACHE_DIR, `store-${sourceKey}-b${await codeHash(BUILDER_FILES)}`);
  const databasePath = join(storeDir, 'finance.duckdb');
  const manifestPath = join(storeDir, 'tokens-all.json');
  let manifest: StoreManifest;
  if (options.rebuild || !(await exists(manifestPath)) || !(await exists(databasePath))) {
    await rm(storeDir, { recursive: true, force: true });
    const inputDir = join(storeDir, 'input');
    await mkdir(inputDir, { recursive: true });
    const users = await readUsers(join(sourceDir, 'users.csv'));
    const typical = shuffled(users.ids, `${spec.seed}/tokens`).map((userId) => ({
      userId,
      token: generateToken(),
    }));
    const heavy = users.heavy ? { userId: users.heavy, token: generateToken() } : null;
    for (const name of await readdir(sourceDir)) {
      if (name.endsWith('.csv')) await symlink(join(sourceDir, name), join(inputDir, name));
    }
    const created = '2026-01-01T00:00:00Z';
    const rows = [...typical, ...(heavy ? [heavy] : [])].map(
      (user) => `${hashToken(user.token)},${user.userId},bench,${created},,`,
    );
    await writeFile(
      join(inputDir, 'access_tokens.csv'),
      `token_hash,user_id,name,created_at,expires_at,revoked_at\n${rows.join('\n')}\n`,
    );
    progress(`[${spec.label}] building ${databasePath} (${rows.length} bench tokens)`);
    await runScript('build-db', ['--source', inputDir, '--database', databasePath], progress);
    manifest = {
      typical,
      heavy,
      transactions: await countLines(join(sourceDir, 'transactions.csv')),
    };
    await writeFile(manifestPath, JSON.stringify(manifest));
  } else {
    progress(`[${spec.label}] reusing store ${databasePath}`);
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as StoreManifest;
  }
  return {
    spec,
    databasePath,
    ...manifest,
    sizeBytes: (await stat(databasePath)).size,
  };
}
