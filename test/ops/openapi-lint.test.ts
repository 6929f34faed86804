/** openapi.yaml lints clean with Redocly's recommended rules, offline, telemetry off. */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const REDOCLY = resolve(ROOT, 'node_modules/.bin/redocly');

it('redocly lint openapi.yaml: no errors, no warnings', async () => {
  const run = promisify(execFile);
  const result = await run(REDOCLY, ['lint', 'openapi.yaml', '--format=stylish'], {
    cwd: ROOT,
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      NO_COLOR: '1',
    },
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => ({
    stdout: error.stdout ?? '',
    stderr: `${error.stderr ?? ''}\n${error.message}`,
    failed: true,
  }));
  const output = `${result.stdout}\n${result.stderr}`;
  expect('failed' in result, output).toBe(false);
  expect(output).toContain('Your API description is valid');
  expect(output, output).not.toMatch(/You have \d+ warnings?|is invalid/);
});
