/**
 * Test processes' scratch folders (test/helpers/store.ts): a folder of a process that no
 * longer runs is swept at another's first use, as vitest ends its workers with a signal before
 * their exit handlers run; the folders of live processes, and anything else, stay.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepScratchFolders } from '../helpers/store.ts';

const parent = mkdtempSync(join(tmpdir(), 'scratch-sweep-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A folder as a test process names its own, with a file in it. */
function scratchOf(name: string): string {
  const folder = join(parent, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'finance.duckdb'), 'x');
  return folder;
}

describe('test scratch folders', () => {
  it('are swept when their process is gone, kept while it runs', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const dead = scratchOf(`finance-test-${gone.pid}-a1b2c3`);
      const live = scratchOf(`finance-test-${running.pid}-d4e5f6`);
      const own = scratchOf(`finance-test-${process.pid}-g7h8i9`);
      const other = scratchOf('finance-test-Xy12Zq');

      expect(sweepScratchFolders(parent)).toEqual([`finance-test-${gone.pid}-a1b2c3`]);
      expect(existsSync(dead)).toBe(false);
      for (const kept of [live, own, other]) expect(existsSync(kept)).toBe(true);
    } finally {
      running.kill('SIGKILL');
    }
  });
});
