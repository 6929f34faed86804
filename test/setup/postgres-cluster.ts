/**
 * The postgres project's global setup: a throwaway sharded cluster (a coordinator and two
 * shards, from the pinned binaries, no fsync) started for the test run and removed after it.
 * Each store a test opens gets databases of its own on it (helpers/postgres.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type ClusterInfo, removeCluster, startCluster } from '../../tools/cluster/cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresCluster: ClusterInfo;
  }
}

const SHARDS = 2;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port with the next SHARDS ports free too. */
async function freePorts(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 41_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: SHARDS + 1 }, (_, k) => base + k);
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return base;
  }
  throw new Error('no free ports for the test cluster');
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'finance-cluster-'));
  const info = await startCluster({ dir, shards: SHARDS, port: await freePorts(), fast: true });
  project.provide('postgresCluster', info);
  // Stops it and deletes its folder, and its data wherever they went (as root, a folder the
  // servers' account can reach: tools/cluster/cluster.ts).
  return () => removeCluster(dir);
}
