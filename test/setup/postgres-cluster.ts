/**
 * The postgres project's global setup: a throwaway sharded cluster (a coordinator and two
 * shards, from the pinned binaries, no fsync) started for the test run and removed after it.
 * Each store a test opens gets databases of its own on it (helpers/postgres.ts).
 *
 * A run ended by SIGINT or SIGTERM (Ctrl-C, a CI timeout) skips the teardown: vitest exits from
 * its signal handler. So the cluster is also removed, synchronously, when the process exits.
 * A run killed outright (SIGKILL) leaves it running: its folder records the run that owns it, and
 * the next run removes every cluster whose owner is gone, never one of a run still going (two
 * runs, from two clones, may share the machine).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  type ClusterInfo,
  removeCluster,
  removeClusterNow,
  startCluster,
} from '../../tools/cluster/cluster.ts';
import { freePortRun } from '../helpers/ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresCluster: ClusterInfo;
  }
}

const SHARDS = 2;
/** The test clusters' folders: `<tmpdir>/finance-cluster-*`. */
export const CLUSTER_PREFIX = 'finance-cluster-';
/** In a test cluster's folder: the process of the run that owns it. */
export const OWNER_FILE = 'owner.json';

/** A process, by its pid and its start time: a pid alone may be reused by a later process. */
export interface Owner {
  pid: number;
  started: string;
}

/** When `pid` started (clock ticks after boot, /proc/<pid>/stat), or undefined if it is gone. */
export function startedAt(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted from the state (field 3) after the command name's closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Removes the test clusters under `parent` whose owning run is gone. A folder that records no
 * owner is left alone: it may be one another run is creating right now.
 */
export async function removeAbandonedClusters(parent: string = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  // Without /proc no owner can be told from a gone one: nothing is removed.
  if (startedAt(process.pid) === undefined) return removed;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue;
    const dir = join(parent, name);
    const owner = await readFile(join(dir, OWNER_FILE), 'utf8')
      .then((text) => JSON.parse(text) as Owner)
      .catch(() => undefined);
    if (!owner || startedAt(owner.pid) === owner.started) continue;
    await removeCluster(dir);
    removed.push(dir);
  }
  return removed;
}

export default async function setup(project: TestProject) {
  for (const dir of await removeAbandonedClusters()) {
    process.stderr.write(`postgres-cluster: removed ${dir}, left by a test run that is gone\n`);
  }
  const dir = await mkdtemp(join(tmpdir(), CLUSTER_PREFIX));
  const owner: Owner = { pid: process.pid, started: startedAt(process.pid) ?? '' };
  await writeFile(join(dir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
  const onExit = () => removeClusterNow(dir);
  process.once('exit', onExit);
  const info = await startCluster({
    dir,
    shards: SHARDS,
    port: await freePortRun(SHARDS + 1),
    fast: true,
  });
  project.provide('postgresCluster', info);
  // Stops it and deletes its folder, and its data wherever they went (as root, a folder the
  // servers' account can reach: tools/cluster/cluster.ts).
  return async () => {
    process.off('exit', onExit);
    await removeCluster(dir);
  };
}
