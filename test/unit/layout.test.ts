/**
 * The tree's layout holds: folders import each other without a cycle (arrows only point down),
 * neither between the leaf folders nor between the top-level ones (src/tokens -> src/ingest ->
 * src/engines -> src/tokens is a cycle even though no two leaf folders close it), an engine
 * imports no other engine (what they share lives below them, in sql/), the routes, the HTTP
 * plugins and the port import no engine, SQL text lives only in engines/, ingest/ and the
 * token file (tokens/token-file.ts), the runtime never reaches into the development tools, and
 * no source folder is named like build output.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => resolve(dirname(file), match[1] ?? ''));
}

/**
 * A file's node in the picture: its folder; each file at the top of src/ (the process, the
 * composition root, the configuration) is a node of its own.
 */
const nodeOf = (file: string) => relative(ROOT, dirname(file) === SRC ? file : dirname(file));

/** A file's top-level folder of src/ (`src/engines` for src/engines/duckdb/pool.ts). */
const topLevelNodeOf = (file: string) => {
  const [first = '', ...rest] = relative(SRC, file).split('/');
  return rest.length === 0 ? relative(ROOT, file) : `src/${first}`;
};

/** Node -> the nodes its files import from (itself left out). */
function folderGraph(files: string[], node: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = node(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const target of relativeImports(file)) {
      const to = node(target);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('source layout', () => {
  const files = sourceFiles(SRC);

  it('has no import cycle between folders', () => {
    expect(cycles(folderGraph(files, nodeOf))).toEqual([]);
  });

  it('has no import cycle between the top-level folders of src/', () => {
    expect(cycles(folderGraph(files, topLevelNodeOf))).toEqual([]);
  });

  it('finds a cycle when two folders import each other', () => {
    const graph = new Map([
      ['src/a', new Set(['src/b'])],
      ['src/b', new Set(['src/c'])],
      ['src/c', new Set(['src/a'])],
      ['src/d', new Set(['src/a'])],
    ]);
    expect(cycles(graph)).toEqual([['src/a', 'src/b', 'src/c']]);
  });

  /** The engine folder a path lies in (`duckdb`, `postgres`), or undefined outside src/engines/. */
  const engineOf = (path: string) => {
    const inEngines = relative(join(SRC, 'engines'), path);
    return inEngines.startsWith('..') ? undefined : inEngines.split('/')[0];
  };

  it('keeps each engine to itself: an engine imports no other', () => {
    const offenders = files.flatMap((file) => {
      const engine = engineOf(file);
      if (engine === undefined) return [];
      return relativeImports(file)
        .filter((target) => ![undefined, engine].includes(engineOf(target)))
        .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    });
    expect(offenders).toEqual([]);
  });

  it('lets http/, areas/ and port/ reach the store through the port only: they import no engine', () => {
    const offenders = files
      .filter((file) => /^(http|areas|port)\//.test(relative(SRC, file)))
      .flatMap((file) =>
        relativeImports(file)
          .filter((target) => engineOf(target) !== undefined)
          .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps SQL text inside engines/, ingest/, the fragments they share (sql/) and the token file', () => {
    const sql =
      /['"`]\s*(SELECT|WITH|INSERT INTO|UPDATE|DELETE FROM|CREATE (TABLE|INDEX|TYPE|SCHEMA)|DROP|ALTER)\s/;
    const offenders = files
      .map((file) => relative(SRC, file))
      .filter((file) => !/^(engines|ingest|sql)\//.test(file) && file !== 'tokens/token-file.ts')
      .filter((file) => sql.test(readFileSync(join(SRC, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('never imports the development tools from the runtime or the operator scripts', () => {
    const runtime = [...files, ...sourceFiles(join(ROOT, 'scripts'))];
    const offenders = runtime.filter((file) =>
      relativeImports(file).some((target) => target.startsWith(`${join(ROOT, 'tools')}/`)),
    );
    expect(offenders.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('has no folder named build under src/', () => {
    const folders = (dir: string): string[] =>
      readdirSync(dir)
        .filter((name) => statSync(join(dir, name)).isDirectory())
        .flatMap((name) => [name, ...folders(join(dir, name))]);
    expect(folders(SRC)).not.toContain('build');
  });

  it("keeps the root of ingest/ engine-neutral and the engines' ingest apart, save the cluster's load of a DuckDB build", () => {
    const ingest = join(SRC, 'ingest');
    const edges = files
      .filter((file) => file.startsWith(`${ingest}/`))
      .flatMap((file) =>
        relativeImports(file).map((target) => [relative(ingest, file), relative(ingest, target)]),
      );
    const engineOf = (path: string) => /^(duckdb|postgres)\//.exec(path)?.[1] ?? 'neutral';
    const offenders = edges
      .filter(([from = '', to = '']) => {
        const [source, target] = [engineOf(from), engineOf(to)];
        if (target === 'neutral' || target === source) return false;
        // The cluster is loaded from a DuckDB store built in a scratch folder.
        return !(source === 'postgres' && to === 'duckdb/build.ts');
      })
      .map(([from, to]) => `${from} -> ${to}`);
    expect(offenders).toEqual([]);
  });
});
