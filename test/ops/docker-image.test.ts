/**
 * The Docker image cannot be built here (no engine), so its steps are pinned to what the
 * tests exercise: the CMD is the command the shutdown test starts and signals, and the
 * HEALTHCHECK command is run here against the real server process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEMO_TODAY,
  demoStoreCopy,
  REPO_ROOT,
  SERVER_COMMAND,
  selfSignedCertificate,
  startServerProcess,
} from '../helpers/server.ts';

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

function execForm(keyword: string): string[] {
  const line = instructions.find((candidate) => candidate.startsWith(`${keyword} `));
  expect(line, keyword).toBeDefined();
  const json = (line as string).slice((line as string).indexOf('['));
  return JSON.parse(json) as string[];
}

function healthcheck(port: number, env: Record<string, string> = {}): number | null {
  const [command, ...args] = execForm('HEALTHCHECK');
  expect(command).toBe('node');
  return spawnSync(command as string, args, {
    env: { ...process.env, PORT: String(port), ...env },
    timeout: 10_000,
  }).status;
}

describe('Dockerfile', () => {
  it('is multi-stage on the glibc slim Node 22 image', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:22-bookworm-slim$/m);
    expect(
      instructions.filter((line) => /^FROM \$\{NODE_IMAGE\} AS /.test(line)).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('installs from the lock with optional packages (DuckDB native binary), no dev tools', () => {
    const installs = instructions.filter((line) => /npm (ci|install)\b/.test(line));
    expect(installs.length).toBeGreaterThan(0);
    expect(instructions.join('\n')).not.toMatch(/--omit=optional|--no-optional/);
    expect(installs.some((line) => line.includes('COPY'))).toBe(false);
    expect(dockerfile).toMatch(/COPY package\.json package-lock\.json \.\//);
    expect(dockerfile).toMatch(/npm install --omit=dev/);
  });

  it('runs as a non-root user with the store on a volume', () => {
    const user = instructions.findLast((line) => line.startsWith('USER '));
    expect(user).toBe('USER node');
    expect(instructions.indexOf(user as string)).toBeLessThan(
      instructions.findIndex((line) => line.startsWith('CMD ')),
    );
    expect(instructions).toContain('VOLUME ["/data"]');
    expect(dockerfile).toMatch(/DATABASE_PATH=\/data\/finance\.duckdb/);
  });

  it('starts node itself in exec form: the command the shutdown test signals', () => {
    expect(execForm('CMD')).toEqual([...SERVER_COMMAND]);
  });

  it('its HEALTHCHECK passes against the live server and fails without one', async () => {
    const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
    const server = await startServerProcess({ DATABASE_PATH: demo.path, TODAY: DEMO_TODAY });
    const port = Number(new URL(server.url).port);
    try {
      expect(healthcheck(port)).toBe(0);
    } finally {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
    expect(healthcheck(port)).toBe(1);
  });

  it('its HEALTHCHECK follows the server to HTTPS when TLS is configured', async () => {
    const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
    const { keyFile, certFile } = selfSignedCertificate();
    const tls = { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile };
    const server = await startServerProcess({
      DATABASE_PATH: demo.path,
      TODAY: DEMO_TODAY,
      ...tls,
    });
    const port = Number(new URL(server.url).port);
    try {
      expect(server.url).toMatch(/^https:/);
      expect(healthcheck(port, tls)).toBe(0);
      // Plain HTTP against the TLS port fails: the scheme matters.
      expect(healthcheck(port)).toBe(1);
    } finally {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
  });

  it('.dockerignore sends only what the image copies', () => {
    const ignore = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8');
    expect(ignore).toMatch(/^\*$/m);
    const kept = ignore
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1));
    expect(kept).toEqual([
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'src/',
      'scripts/build-db.ts',
      'scripts/token.ts',
    ]);
    // Every path the runtime stage copies from the context is sent.
    const copied = instructions
      .filter((line) => line.startsWith('COPY ') && !line.includes('--from'))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    for (const path of copied) {
      expect(kept.some((entry) => entry.replace(/\/$/, '') === path.replace(/\/$/, ''))).toBe(true);
    }
  });
});
