/**
 * As root the servers run as the "postgres" account, which cannot enter a
 * folder only root may (a clone under /root, a `mktemp -d` folder). The cluster still starts
 * there: the binaries are run from a copy the account can reach, the data go to a folder it
 * can reach, and remove deletes them. Runs only as root (elsewhere the servers run as the
 * caller, who can reach its own folders).
 */
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pinnedBinDir, removeCluster, startCluster } from '../../../tools/cluster/cluster.ts';
import { freePortRun } from '../../helpers/ports.ts';

const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)('a cluster started from folders only root may enter', () => {
  it('starts, answers, and is removed with its relocated data', async () => {
    // Binaries in a mode-700 folder, as in a clone under /root; the cluster in a mktemp -d one.
    const hiddenBinaries = await mkdtemp(join(tmpdir(), 'finance-hidden-bin-'));
    const hiddenParent = await mkdtemp(join(tmpdir(), 'finance-hidden-dir-'));
    try {
      expect((await stat(hiddenParent)).mode & 0o777).toBe(0o700);
      await cp(resolve(pinnedBinDir(), '..'), join(hiddenBinaries, 'native'), {
        recursive: true,
        verbatimSymlinks: true,
      });
      const dir = join(hiddenParent, 'c');
      const port = await freePortRun(2);
      const info = await startCluster({
        dir,
        shards: 1,
        port,
        fast: true,
        binDir: join(hiddenBinaries, 'native', 'bin'),
      });
      const layout = JSON.parse(await readFile(join(dir, 'cluster.json'), 'utf8')) as {
        dataRoot?: string;
      };
      expect(layout.dataRoot).toMatch(/^\/var\/lib\/finance-api\/clusters\/[0-9a-f]{16}$/);
      const client = new pg.Client({ connectionString: info.databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ one: number }>('SELECT 1 AS one');
      await client.end();
      expect(rows).toEqual([{ one: 1 }]);
      await removeCluster(dir);
      await expect(stat(layout.dataRoot as string)).rejects.toThrow(/ENOENT/);
      await expect(stat(dir)).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(hiddenBinaries, { recursive: true, force: true });
      await rm(hiddenParent, { recursive: true, force: true });
    }
  }, 180_000);
});
