import { spawnSync } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tokensPathFor } from '../../src/tokens/path.ts';
import { generateToken, hashToken, isWellFormedToken } from '../../src/tokens/token.ts';
import { listTokens, mintToken, revokeToken } from '../../src/tokens/token-file.ts';
import {
  buildStoreFromCsv,
  makeTempDir,
  queryStoreFile,
  writeCsvFixture,
} from '../helpers/store.ts';

const TSX = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
const TOKEN_CLI = resolve(import.meta.dirname, '../../scripts/token.ts');

const runToken = (args: string[], env: Record<string, string> = {}, input?: string) =>
  spawnSync(TSX, [TOKEN_CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    ...(input === undefined ? {} : { input }),
  });

describe('token CLI', () => {
  let databasePath: string;
  let tokensPath: string;

  beforeAll(async () => {
    const source = makeTempDir('source');
    await writeCsvFixture(source, {
      users: [{ id: 'usr_tok', name: 'Tess', email: 'tess@example.com', created_at: '2024-01-01' }],
      links: [
        {
          id: 'lnk_t',
          user_id: 'usr_tok',
          type: 'institution',
          name: 'Chase',
          status: 'active',
          created_at: '2024-01-01',
        },
      ],
      accounts: [
        { id: 'acc_t', user_id: 'usr_tok', link_id: 'lnk_t', name: 'Checking', type: 'depository' },
      ],
      transactions: [
        {
          id: 'txn_t',
          user_id: 'usr_tok',
          account_id: 'acc_t',
          transacted_at: '2024-02-01',
          amount: '1.00',
          direction: 'DEBIT',
          description: 'X',
          category: 'Other',
        },
      ],
    });
    databasePath = await buildStoreFromCsv(source);
    tokensPath = tokensPathFor(databasePath);
  });

  it('mints a token, prints it once and stores only its hash', async () => {
    const analyticsBefore = await stat(databasePath);
    const minted = runToken(['--user', 'usr_tok', '--name', 'laptop', '--expires', '2099-01-31'], {
      DATABASE_PATH: databasePath,
    });
    expect(minted.status, minted.stderr).toBe(0);
    const token = minted.stdout.trim();
    expect(isWellFormedToken(token)).toBe(true);
    const id = hashToken(token).slice(0, 12);
    expect(minted.stderr).toContain(`token ${id} minted for user usr_tok`);
    expect(minted.stderr).toContain('shown only this once');
    expect(minted.stderr).not.toContain(token);

    const rows = await queryStoreFile(tokensPath, 'SELECT * FROM access_tokens');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      token_hash: hashToken(token),
      user_id: 'usr_tok',
      name: 'laptop',
      expires_at: '2099-02-01 00:00:00',
      revoked_at: null,
    });
    expect(JSON.stringify(rows)).not.toContain(token);
    // Only the token store was written: the analytics file is the same file, unmodified,
    // and no temp files are left.
    const analyticsAfter = await stat(databasePath);
    expect(analyticsAfter.ino).toBe(analyticsBefore.ino);
    expect(analyticsAfter.mtimeMs).toBe(analyticsBefore.mtimeMs);
    expect((await readdir(dirname(databasePath))).sort()).toEqual([
      'finance.duckdb',
      'finance.tokens.duckdb',
    ]);
  });

  it('revokes by id prefix and lists without hashes', async () => {
    const token = await mintToken({ databasePath, userId: 'usr_tok', name: 'to-revoke' });
    const prefix = hashToken(token).slice(0, 8);
    const revoked = runToken(['--revoke', prefix, '--database', databasePath]);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stderr).toContain(`revoked token ${hashToken(token).slice(0, 12)}`);
    const [row] = await queryStoreFile(
      tokensPath,
      'SELECT revoked_at FROM access_tokens WHERE token_hash = $1',
      [hashToken(token)],
    );
    expect(row?.revoked_at).not.toBeNull();

    const listed = runToken(['--list', '--user', 'usr_tok', '--database', databasePath]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('to-revoke');
    expect(listed.stdout).toContain(hashToken(token).slice(0, 12));
    expect(listed.stdout).not.toContain(hashToken(token).slice(0, 13));
  });

  it('revokes by the whole token, keeping the first revocation time', async () => {
    const token = await mintToken({ databasePath, userId: 'usr_tok' });
    const first = await revokeToken({ tokensPath, idOrToken: token });
    expect(first.alreadyRevoked).toBe(false);
    const [before] = await listTokens({ databasePath, userId: 'usr_tok' }).then((tokens) =>
      tokens.filter((t) => t.id === first.id),
    );
    const second = await revokeToken({ tokensPath, idOrToken: token });
    expect(second.alreadyRevoked).toBe(true);
    const [after] = await listTokens({ databasePath, userId: 'usr_tok' }).then((tokens) =>
      tokens.filter((t) => t.id === first.id),
    );
    expect(after?.revokedAt).toBe(before?.revokedAt);
  });

  it('refuses an unknown user, an unknown or too short prefix', async () => {
    const unknown = runToken(['--user', 'usr_nobody', '--database', databasePath]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("unknown user 'usr_nobody'");
    expect(unknown.stdout).toBe('');
    await expect(revokeToken({ tokensPath, idOrToken: 'abc' })).rejects.toThrow(
      'at least 8 hex characters',
    );
    await expect(revokeToken({ tokensPath, idOrToken: '00000000' })).rejects.toThrow(
      "no token matches '00000000'",
    );
    const missing = runToken([
      '--list',
      '--user',
      'usr_tok',
      '--database',
      '/nonexistent/store.duckdb',
    ]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('store not found');
  });

  it('shows help with exit 0 and usage errors with exit 2', () => {
    const help = runToken(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('npm run token -- --user ID');
    const pastExpiry = runToken([
      '--user',
      'usr_tok',
      '--expires',
      '2001-01-01',
      '--database',
      databasePath,
    ]);
    expect(pastExpiry.status).toBe(2);
    expect(pastExpiry.stderr).toContain('not in the future');
  });

  it('refuses an expiry date that does not exist (Date would read 2099-02-30 as 2 March)', () => {
    for (const expires of ['2099-02-30', '2099-02-30T10:00:00Z']) {
      const result = runToken([
        '--user',
        'usr_tok',
        '--expires',
        expires,
        '--database',
        databasePath,
      ]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`no such date '${expires}'`);
    }
  });

  it('refuses --revoke with --user: the user would be silently ignored', () => {
    const result = runToken([
      '--revoke',
      'abcdef123456',
      '--user',
      'usr_tok',
      '--database',
      databasePath,
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--revoke takes no --list, --user');
  });

  // Issue 23: a token on the command line lands in shell history and npm's debug log.
  it('--revoke - takes the token from standard input and never prints it', async () => {
    const token = await mintToken({ databasePath, userId: 'usr_tok', name: 'stdin' });
    const revoked = runToken(['--revoke', '-', '--database', databasePath], {}, `${token}\n`);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stderr).toContain(`revoked token ${hashToken(token).slice(0, 12)}`);
    expect(revoked.stdout + revoked.stderr).not.toContain(token);
    const [listed] = (await listTokens({ databasePath, tokensPath, userId: 'usr_tok' })).filter(
      (entry) => entry.id === hashToken(token).slice(0, 12),
    );
    expect(listed?.revokedAt).not.toBeNull();
  });

  it('--revoke -: nothing or several values on standard input is wrong usage (exit 2)', () => {
    const empty = runToken(['--revoke', '-', '--database', databasePath], {}, '');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('no token on standard input');
    const two = runToken(['--revoke', '-', '--database', databasePath], {}, 'abc def\n');
    expect(two.status).toBe(2);
    expect(two.stderr).toContain('expected one token');
  });

  it('a whole token on the command line is still revoked, with a warning; an unknown one is not echoed', async () => {
    const token = await mintToken({ databasePath, userId: 'usr_tok', name: 'argv' });
    const revoked = runToken(['--revoke', token, '--database', databasePath]);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stderr).toContain('warning: a token on the command line');
    expect(revoked.stderr).not.toContain(token);
    const unknown = generateToken();
    const refused = runToken(['--revoke', '-', '--database', databasePath], {}, unknown);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('no token matches the given token');
    expect(refused.stderr).not.toContain(unknown);
  });

  it('--help names the ways to revoke and the exit codes', () => {
    const help = runToken(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--revoke ID');
    expect(help.stdout).toContain('--revoke -');
    expect(help.stdout).toContain('Exit codes: 0 done, 1 refused or failed');
  });
});
