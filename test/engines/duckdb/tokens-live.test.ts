/**
 * Tokens in their own store, as an operator uses them: `npm run token` on a running server's
 * store finishes well under a second, never rewrites the analytics file, and the running
 * server (a real process, over HTTP) honours a new or revoked token within a second.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokensPathFor } from '../../../src/tokens/path.ts';
import {
  bearer,
  DEMO_TODAY,
  demoStoreCopy,
  REPO_ROOT,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/server.ts';
import { makeTempDir } from '../../helpers/store.ts';

const TSX = resolve(REPO_ROOT, 'node_modules/.bin/tsx');
const TOKEN_CLI = resolve(REPO_ROOT, 'scripts/token.ts');
const USER = 'usr_jqhzo7mn41';

let server: ServerProcess;
let databasePath: string;
let firstToken: string;

beforeAll(async () => {
  const demo = await demoStoreCopy([USER]);
  databasePath = demo.path;
  firstToken = demo.tokens[0] as string;
  server = await startServerProcess({ DATABASE_PATH: databasePath, TODAY: DEMO_TODAY });
});
afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
});

function runTokenCli(args: string[]): { stdout: string; stderr: string; ms: number } {
  const started = performance.now();
  const result = spawnSync(TSX, [TOKEN_CLI, ...args, '--database', databasePath], {
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  expect(result.status, result.stderr).toBe(0);
  return { stdout: result.stdout, stderr: result.stderr, ms };
}

/** Milliseconds until `/v1/user` with the token answers `status`; fails past one second. */
async function untilStatus(token: string, status: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await fetch(`${server.url}/v1/user`, { headers: bearer(token) });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status === status) return elapsed;
    if (elapsed > 1000) throw new Error(`still ${response.status} after ${elapsed.toFixed(0)} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the token store beside a running server', () => {
  it('minting leaves the analytics file untouched and the server accepts the token within a second', async () => {
    const before = await stat(databasePath);
    const minted = runTokenCli(['--user', USER, '--name', 'live']);
    const token = minted.stdout.trim();
    const after = await stat(databasePath);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    const seenAfter = await untilStatus(token, 200);
    // The CLI's own time includes starting node and tsx; the work itself is a small file.
    process.stdout.write(
      `token CLI mint: ${minted.ms.toFixed(0)} ms (process included); accepted after ${seenAfter.toFixed(0)} ms\n`,
    );

    const revoked = runTokenCli(['--revoke', token]);
    const refusedAfter = await untilStatus(token, 401);
    process.stdout.write(
      `token CLI revoke: ${revoked.ms.toFixed(0)} ms; refused after ${refusedAfter.toFixed(0)} ms\n`,
    );
    expect((await stat(databasePath)).mtimeMs).toBe(before.mtimeMs);
    // Other tokens are unaffected.
    expect(await untilStatus(firstToken, 200)).toBeLessThan(1000);
  });

  it('a token store that cannot be read is refused; the tokens read before stay in force', async () => {
    const tokensPath = tokensPathFor(databasePath);
    const saved = join(makeTempDir('tokens-backup'), 'tokens.duckdb');
    await copyFile(tokensPath, saved);
    const garbage = `${tokensPath}.incoming`;
    await writeFile(garbage, 'not a DuckDB file'.repeat(100));
    await rename(garbage, tokensPath);
    await new Promise((r) => setTimeout(r, 600));
    expect(await untilStatus(firstToken, 200)).toBeLessThan(1000);
    expect(server.output()).toContain('token store unreadable');
    await copyFile(saved, `${tokensPath}.incoming`);
    await rename(`${tokensPath}.incoming`, tokensPath);
  });
});
