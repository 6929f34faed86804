/**
 * Operator tools: a killed build leaves temp files that the next build removes (and
 * only those), a row too long for the reader is reported at its file and line, and a
 * transaction naming a missing user says so.
 */
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStore } from '../../src/ingest/duckdb/build.ts';
import { BuildInputError } from '../../src/ingest/problems.ts';
import { DEMO_DIR } from '../../tools/demo-data/demo.ts';
import { makeTempDir } from '../helpers/store.ts';

/** The pid of a process that ran and exited: no process has it now. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('a later build removes what a killed one left', () => {
  it('removes dead writers’ temp files, keeps a live writer’s and anything else', async () => {
    const dir = makeTempDir('stale');
    const target = join(dir, 'finance.duckdb');
    const dead = await deadPid();
    const live = spawn('sleep', ['30']);
    try {
      const name = (purpose: string, pid: number, suffix = '') =>
        join(dir, `.${basename(target)}.${purpose}-${pid}-0123456789ab.tmp${suffix}`);
      const leftovers = [name('build', dead), name('build', dead, '.wal'), name('staging', dead)];
      const kept = [name('build', live.pid as number), join(dir, 'notes.txt')];
      for (const path of [...leftovers, ...kept]) await writeFile(path, 'x'.repeat(1000));
      const lines: string[] = [];
      await buildStore({
        sourceDir: DEMO_DIR,
        databasePath: target,
        onProgress: (l) => lines.push(l),
      });
      const names = await readdir(dir);
      for (const path of leftovers) expect(names).not.toContain(basename(path));
      for (const path of kept) expect(names).toContain(basename(path));
      expect(lines.join('\n')).toContain('removed 3 file(s) left by an interrupted build');
      // The build's own temp files are gone too.
      expect(
        names.filter((n) => n.startsWith('.') && !kept.map((k) => basename(k)).includes(n)),
      ).toEqual([]);
    } finally {
      live.kill();
    }
  });

  it('a build-db killed mid-way leaves files the next run removes', async () => {
    const dir = makeTempDir('killed');
    const target = join(dir, 'finance.duckdb');
    // node itself runs the CLI (no tsx wrapper process), so the kill reaches the writer.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/build-db.ts', '--source', DEMO_DIR, '--database', target],
      { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Killed once it has begun writing (its first progress line).
    await new Promise<void>((resolve) => child.stderr?.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const left = (await readdir(dir)).filter((n) => n.includes('.tmp'));
    expect(left.length).toBeGreaterThan(0);
    await buildStore({ sourceDir: DEMO_DIR, databasePath: target });
    const names = await readdir(dirname(target));
    expect(names.filter((n) => n.endsWith('.tmp') || n.includes('.tmp.'))).toEqual([]);
  });
});

describe('build-db reports bad input at its file and line', () => {
  async function sourceWith(edit: (lines: string[]) => void): Promise<string> {
    const dir = makeTempDir('source');
    await cp(DEMO_DIR, dir, { recursive: true });
    const path = join(dir, 'transactions.csv');
    const lines = (await readFile(path, 'utf8')).split('\n');
    edit(lines);
    await writeFile(path, lines.join('\n'));
    return dir;
  }

  async function problemsOf(sourceDir: string): Promise<string[]> {
    const error = await buildStore({
      sourceDir,
      databasePath: join(makeTempDir('out'), 'finance.duckdb'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildInputError);
    return (error as BuildInputError).problems;
  }

  it('a 3 MB field on line 102: transactions.csv:102, not "CSV Error on Line: 1"', async () => {
    const source = await sourceWith((lines) => {
      const fields = (lines[101] as string).split(',');
      fields[7] = 'x'.repeat(3_000_000);
      lines[101] = fields.join(',');
    });
    const problems = await problemsOf(source);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^transactions\.csv:102: a row of 3,000,\d+ bytes/);
  });

  it('a transaction naming a missing user: the user is missing, not "another user"', async () => {
    const source = await sourceWith((lines) => {
      lines[4] = (lines[4] as string).replace(/usr_[a-z0-9]+/, 'usr_missing01');
    });
    const problems = await problemsOf(source);
    expect(problems).toEqual(["transactions.csv:5: user 'usr_missing01' does not exist in users"]);
  });
});
