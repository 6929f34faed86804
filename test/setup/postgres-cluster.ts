/**
 * The postgres project's global setup: a throwaway sharded cluster (a coordinator and two
 * shards, from the pinned binaries, no fsync) started for the test run and removed after it.
 * Each store a test opens gets databases of its own on it (helpers/postgres.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type ClusterInfo, removeCluster, startCluster } from '../../tools/cluster/cluster.ts';
import { freePortRun } from '../helpers/ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresCluster: ClusterInfo;
  }
}

const SHARDS = 2;

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'finance-cluster-'));
  const info = await startCluster({
    dir,
    shards: SHARDS,
    port: await freePortRun(SHARDS + 1),
    fast: true,
  });
  project.provide('postgresCluster', info);
  // Stops it and deletes its folder, and its data wherever they went (as root, a folder the
  // servers' account can reach: tools/cluster/cluster.ts).
  return () => removeCluster(dir);
}
