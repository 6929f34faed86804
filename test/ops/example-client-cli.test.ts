/**
 * The example client explains itself (`--help`, exit 0) and refuses a
 * wrong command line or environment clearly (exit 2), run as a process like a user would.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function client(args: string[], env: Record<string, string | undefined> = {}) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'examples/monthly-spending.ts', ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
      // An address nothing listens on: no test here may reach an API.
      env: { ...process.env, API_BASE_URL: 'http://127.0.0.1:9', API_TOKEN: undefined, ...env },
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('examples/monthly-spending.ts as a command', () => {
  it('--help and -h print usage, options and environment, exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const result = client([flag]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Usage: /);
      for (const word of [
        '--start',
        '--end',
        '--help',
        'API_TOKEN',
        'API_BASE_URL',
        'Exit codes',
      ]) {
        expect(result.stdout, word).toContain(word);
      }
    }
    // Help wins over everything else, even a missing token.
    expect(client(['--start', 'x', '--help']).code).toBe(0);
  });

  it.each([
    [['--month', '5'], "Unknown option '--month'"],
    [['--start'], "Option '--start <value>' argument missing"],
    [['2026-01-01'], 'Unexpected argument'],
    [['--start', 'yesterday'], "--start must be a date as YYYY-MM-DD, got 'yesterday'"],
    [['--end', '2026/10/31'], "--end must be a date as YYYY-MM-DD, got '2026/10/31'"],
  ])('%j: a usage error naming the problem, exit 2', (args, message) => {
    const result = client(args, { API_TOKEN: 'pat_x' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`monthly-spending: ${message}`);
    expect(result.stderr).toContain('Run with --help for usage.');
  });

  it('a missing token or a base URL that is not one: exit 2', () => {
    const noToken = client([]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('set API_TOKEN to a personal access token');
    expect(noToken.stderr).toContain('--help');
    const badUrl = client([], { API_TOKEN: 'pat_x', API_BASE_URL: 'localhost:8000' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('API_BASE_URL must be an http(s) URL');
  });

  it('an API that cannot be reached: exit 1, not a usage error', () => {
    const result = client([], { API_TOKEN: 'pat_x' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^monthly-spending: /);
  });
});
