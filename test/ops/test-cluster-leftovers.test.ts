/**
 * The PostgreSQL cluster a test run starts (test/setup/postgres-cluster.ts) does not outlive the
 * run: a run ended by SIGTERM (a CI timeout; Ctrl-C's SIGINT takes the same path) stops and
 * deletes it on its way out, and the clusters of a run killed outright (SIGKILL) are removed by
 * the next run when it starts; a cluster whose run still goes, or whose folder names no owner,
 * is never touched. Real vitest runs of one postgres suite, in a temporary folder of their own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/store.ts';
import {
  CLUSTER_PREFIX,
  OWNER_FILE,
  removeAbandonedClusters,
  startedAt,
} from '../setup/postgres-cluster.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const VITEST = join(ROOT, 'node_modules/.bin/vitest');
/** A postgres suite that runs long enough to be interrupted once its cluster is up. */
const SUITE = 'test/engines/postgres/generations.test.ts';
const SLOW = 300_000;

interface Run {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `vitest run` of the postgres suite, with `tmp` as its temporary folder. */
function runVitest(tmp: string): Run {
  // Not this worker's vitest variables: the child is a run of its own.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST_ENGINE)/.test(name)),
  );
  const child = spawn(VITEST, ['run', '--project', 'postgres', SUITE], {
    cwd: ROOT,
    env: { ...env, TMPDIR: tmp },
    // A process group of its own, so the test can kill all of it at once.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return { child, output: () => output, exited };
}

interface Cluster {
  dir: string;
  /** Where the instances' data are: the folder, or (as root) the one they were moved to. */
  dataRoot: string;
  postmasters: number[];
}

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
};

/** The clusters under `tmp` whose three servers all run. */
function runningClusters(tmp: string): Cluster[] {
  const found: Cluster[] = [];
  for (const name of readdirSync(tmp).filter((entry) => entry.startsWith(CLUSTER_PREFIX))) {
    const dir = join(tmp, name);
    try {
      const layout = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'));
      const dataRoot: string = layout.dataRoot ?? dir;
      const postmasters = ['coordinator', 'shard1', 'shard2'].map((instance) =>
        Number(readFileSync(join(dataRoot, instance, 'postmaster.pid'), 'utf8').split('\n')[0]),
      );
      if (postmasters.every(alive)) found.push({ dir, dataRoot, postmasters });
    } catch {
      // Not up yet.
    }
  }
  return found;
}

/** Waits for a cluster under `tmp` other than `known` to be up. */
async function clusterUp(tmp: string, run: Run, known: string[] = []): Promise<Cluster> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const cluster = runningClusters(tmp).find((candidate) => !known.includes(candidate.dir));
    if (cluster) return cluster;
    if (run.child.exitCode !== null) throw new Error(`vitest ended first:\n${run.output()}`);
    await sleep(100);
  }
  throw new Error(`no cluster came up:\n${run.output()}`);
}

/** Every process of the run's group, its workers included, is ended. */
function endGroup(run: Run) {
  try {
    process.kill(-(run.child.pid as number), 'SIGKILL');
  } catch {
    // Gone already.
  }
}

describe('the test run’s PostgreSQL cluster', () => {
  /** Ends the runs (whatever failed), then the clusters they left. */
  async function cleanUp(tmp: string, runs: (Run | undefined)[]) {
    for (const run of runs) {
      if (!run) continue;
      endGroup(run);
      await run.exited;
    }
    await removeAbandonedClusters(tmp);
  }

  it.each([
    // Ctrl-C: the terminal signals the whole foreground process group.
    ['SIGINT', 'to the run’s process group, as Ctrl-C does', true],
    // A CI timeout (`timeout`, npm passing it on): vitest alone.
    ['SIGTERM', 'to vitest alone, as a CI timeout does', false],
  ] as const)(
    '%s %s: the run stops and deletes it on its way out',
    async (signal, _how, group) => {
      const tmp = makeTempDir('tmpdir');
      const run = runVitest(tmp);
      try {
        const own = await clusterUp(tmp, run);
        process.kill(group ? -(run.child.pid as number) : (run.child.pid as number), signal);
        const exit = await run.exited;
        expect(exit.signal ?? exit.code).not.toBe(0);
        expect(own.postmasters.some(alive)).toBe(false);
        expect([existsSync(own.dir), existsSync(own.dataRoot)]).toEqual([false, false]);
      } finally {
        await cleanUp(tmp, [run]);
      }
    },
    SLOW,
  );

  it(
    'a run killed outright (SIGKILL) leaves it running; the next run removes it when it starts',
    async () => {
      const tmp = makeTempDir('tmpdir');
      const killed = runVitest(tmp);
      let next: Run | undefined;
      try {
        const left = await clusterUp(tmp, killed);
        endGroup(killed);
        await killed.exited;
        // The servers run in sessions of their own: SIGKILL of the run leaves them.
        expect(left.postmasters.every(alive)).toBe(true);

        next = runVitest(tmp);
        await clusterUp(tmp, next, [left.dir]);
        expect(left.postmasters.some(alive)).toBe(false);
        expect([existsSync(left.dir), existsSync(left.dataRoot)]).toEqual([false, false]);
        expect(next.output()).toContain(`removed ${left.dir}, left by a test run that is gone`);
      } finally {
        await cleanUp(tmp, [killed, next]);
      }
    },
    SLOW,
  );

  it('a run removes only clusters whose owner is gone', async () => {
    const tmp = makeTempDir('tmpdir');
    const gone = spawn('true');
    await new Promise((done) => gone.once('exit', done));
    const folders = {
      live: { pid: process.pid, started: startedAt(process.pid) },
      reused: { pid: process.pid, started: 'an earlier process with this pid' },
      dead: { pid: gone.pid, started: '1' },
      unowned: undefined,
    };
    for (const [name, owner] of Object.entries(folders)) {
      const dir = join(tmp, `${CLUSTER_PREFIX}${name}`);
      await mkdir(dir);
      if (owner) await writeFile(join(dir, OWNER_FILE), JSON.stringify(owner));
    }
    await mkdir(join(tmp, 'another-folder'));
    expect((await removeAbandonedClusters(tmp)).sort()).toEqual(
      [join(tmp, `${CLUSTER_PREFIX}dead`), join(tmp, `${CLUSTER_PREFIX}reused`)].sort(),
    );
    expect(readdirSync(tmp).sort()).toEqual(
      ['another-folder', `${CLUSTER_PREFIX}live`, `${CLUSTER_PREFIX}unowned`].sort(),
    );
  });
});
