/**
 * Every repository path a comment or a doc names exists, so a file that is moved or renamed
 * cannot leave its old name behind.
 *
 * Read: the comments of the sources (src/, test/, tools/, bench/, scripts/, examples/, the
 * Dockerfile and .ci/run), and the docs whole, code blocks included (README.md, docs/*.md,
 * fixtures/README.md). A path is a token that starts with a top-level folder of the repository
 * (`src/`, `test/`, `docs/`, `tools/`, `bench/`, `scripts/`, `fixtures/`, `examples/`, `.ci/`),
 * or that names a source or doc file (ending in `.ts`, `.sh`, `.py` or `.md`, with or without
 * folders before it); a Markdown link's target is one too. Other file names (`users.csv`,
 * `cluster.json`) are the data and files the tools read and write, not the repository's.
 *
 * Where a path resolves: a top-level one from the root or the naming file's folder; a file name
 * with folders from the naming file's folder or any folder above it, or from src/ (code names
 * its modules as `engines/duckdb/pool.ts`); a bare file name anywhere (the sentence says which
 * folder); a Markdown link from the doc's folder, as a viewer follows it. `<engine>`, `*` and
 * `...` stand for any name (`**` and a lone `...` for any folders); a path under a folder
 * .gitignore names (`bench/cache/`, `data/`) is made by the tools and not checked.
 *
 * And the README's layout names every top-level folder, and every folder of src/ that holds
 * files, so a folder added or moved shows there too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

const TOP_FOLDERS = [
  'src',
  'test',
  'docs',
  'tools',
  'bench',
  'scripts',
  'fixtures',
  'examples',
  '.ci',
];
const SOURCE_FILE = /\.(?:ts|sh|py|md)$/;
const COMMENTED_FOLDERS = ['src', 'test', 'tools', 'bench', 'scripts', 'examples'];
const COMMENTED_FILES = ['Dockerfile', '.ci/run'];
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** Folders .gitignore names: what the tools make (`bench/cache/`, `data/`), never committed. */
const IGNORED_FOLDERS = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.endsWith('/') && !/[*?[!#]/.test(line))
  .map((line) => line.replace(/^\//, ''));

/** The repository's files as git sees them: tracked or new, never ignored, still on disk. */
const REPOSITORY_FILES = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
  { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
)
  .split('\0')
  .filter((file) => file !== '' && existsSync(join(ROOT, file)));
const BASENAMES = new Set(REPOSITORY_FILES.map((file) => posix.basename(file)));

/** One pattern segment (`<time>-full.json`, `*.test.ts`) as a regular expression. */
function segmentPattern(segment: string): RegExp {
  const source = segment
    .split(/(<[^<>]+>|\*|\.\.\.)/)
    .map((part) => {
      if (part === '*' || part === '...' || /^<[^<>]+>$/.test(part)) return '.*';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** Whether `segments` name an existing file or folder under `dir` (placeholders allowed). */
function existsUnder(dir: string, segments: string[]): boolean {
  const [first, ...rest] = segments;
  if (first === undefined) return true;
  if (first === '' || first === '.') return existsUnder(dir, rest);
  if (first === '..') return existsUnder(dirname(dir), rest);
  if (first === '**' || first === '...') {
    if (existsUnder(dir, rest)) return true;
    return children(dir).some((child) => isDirectory(child) && existsUnder(child, segments));
  }
  if (!/[<>*]|\.\.\./.test(first)) {
    const path = join(dir, first);
    return existsSync(path) && (rest.length === 0 || isDirectory(path)) && existsUnder(path, rest);
  }
  const pattern = segmentPattern(first);
  return children(dir).some(
    (child) =>
      pattern.test(posix.basename(child)) &&
      (rest.length === 0 || isDirectory(child)) &&
      existsUnder(child, rest),
  );
}

function children(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  return readdirSync(dir)
    .filter((name) => !SKIPPED_FOLDERS.has(name))
    .map((name) => join(dir, name));
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** The folder of `file` and every folder above it, up to the root. */
function foldersUp(file: string): string[] {
  const folders: string[] = [];
  for (let dir = dirname(join(ROOT, file)); dir.startsWith(ROOT); dir = dirname(dir)) {
    folders.push(dir);
    if (dir === ROOT) break;
  }
  return folders;
}

type Kind = 'path' | 'link';

/** Whether the path `token`, named in `file`, resolves (see the top of this file). */
function resolves(token: string, file: string, kind: Kind = 'path'): boolean {
  const segments = token.split('/');
  if (kind === 'link') return existsUnder(dirname(join(ROOT, file)), segments);
  if (IGNORED_FOLDERS.some((folder) => `${token}/`.startsWith(folder))) return true;
  const [first] = segments;
  if (first !== undefined && TOP_FOLDERS.includes(first) && segments.length > 1) {
    return existsUnder(ROOT, segments) || existsUnder(dirname(join(ROOT, file)), segments);
  }
  if (segments.length === 1) {
    if (/[<>*]|\.\.\./.test(token)) {
      const pattern = segmentPattern(token);
      return [...BASENAMES].some((name) => pattern.test(name));
    }
    return BASENAMES.has(token) || existsUnder(dirname(join(ROOT, file)), segments);
  }
  return [...foldersUp(file), join(ROOT, 'src')].some((dir) => existsUnder(dir, segments));
}

const count = (text: string, character: string) => text.split(character).length - 1;

/** The repository paths a text names: top-level paths and source file names, in order. */
function namedPaths(text: string): string[] {
  const found: string[] = [];
  // A run of path characters not glued to a URL, a variable, a package scope or a home folder.
  for (const match of text.matchAll(/(?<![\w./@$~:<>*-])[\w.<>*/-]+/g)) {
    let token = match[0].replace(/^\.\//, '');
    if (!token.endsWith('...')) token = token.replace(/\.+$/, '');
    token = token.replace(/-+$/, '');
    // `<a user id from fixtures/demo/users.csv>`: the placeholder's brackets are not the path's.
    while (token.endsWith('>') && count(token, '>') > count(token, '<')) token = token.slice(0, -1);
    if (token.startsWith('/') || token.includes('//')) continue;
    const segments = token.split('/');
    const first = segments[0] ?? '';
    const last = segments.at(-1) ?? '';
    const topLevel = TOP_FOLDERS.includes(first) && segments.length > 1;
    const sourceFile = SOURCE_FILE.test(last) && /^[\w<*]/.test(last);
    if (topLevel || sourceFile) found.push(token);
  }
  return found;
}

/** The targets of a Markdown text's links inside the repository, anchors dropped. */
function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*$/, ''));
}

/** The comments of a TypeScript source, in order: the trivia before each token. */
function typeScriptComments(text: string, fileName = 'source.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const comments: string[] = [];
  const seen = new Set<number>();
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) {
      return;
    }
    if (!ts.isTokenKind(node.kind)) {
      for (const child of node.getChildren(source)) visit(child);
      return;
    }
    if (seen.has(node.pos)) return;
    seen.add(node.pos);
    const trivia = text.slice(node.pos, node.getStart(source));
    for (const match of trivia.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)) comments.push(match[0]);
  };
  visit(source);
  return comments;
}

/** The comments of a shell, Python or Dockerfile source: from a `#` that starts a word. */
function hashComments(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => [...line.matchAll(/(?:^|\s)(#(?!!).*)$/g)].map((match) => match[1] ?? ''));
}

interface Mention {
  file: string;
  path: string;
  kind: Kind;
}

function mentionsIn(file: string): Mention[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (file.endsWith('.md')) {
    return [
      ...namedPaths(text).map((path) => ({ file, path, kind: 'path' as const })),
      ...linkTargets(text).map((path) => ({ file, path, kind: 'link' as const })),
    ];
  }
  const comments = /\.[cm]?tsx?$/.test(file) ? typeScriptComments(text, file) : hashComments(text);
  return comments.flatMap((comment) =>
    namedPaths(comment).map((path) => ({ file, path, kind: 'path' as const })),
  );
}

const DOCS = [
  'README.md',
  'fixtures/README.md',
  ...REPOSITORY_FILES.filter((file) => /^docs\/[^/]+\.md$/.test(file)),
];
const COMMENTED = [
  ...COMMENTED_FILES,
  ...REPOSITORY_FILES.filter(
    (file) =>
      COMMENTED_FOLDERS.some((folder) => file.startsWith(`${folder}/`)) &&
      /\.(?:[cm]?tsx?|sh|py)$/.test(file),
  ),
];

describe('the paths comments and docs name', () => {
  const mentions = [...DOCS, ...COMMENTED].flatMap(mentionsIn);

  it('are read from every doc and commented source', () => {
    expect(DOCS).toContain('docs/api.md');
    expect(COMMENTED).toContain('src/main.ts');
    expect(COMMENTED).toContain('scripts/docker-smoke.sh');
    // Enough to show the extraction works: the docs and comments name hundreds of paths.
    expect(mentions.length).toBeGreaterThan(200);
  });

  it('all exist', () => {
    const missing = mentions
      .filter((mention) => !resolves(mention.path, mention.file, mention.kind))
      .map(
        (mention) => `${mention.file}: ${mention.kind === 'link' ? 'link ' : ''}${mention.path}`,
      );
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe("the README's layout", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Layout'));
  const block = section.slice(
    section.indexOf('```'),
    section.indexOf('```', section.indexOf('```') + 3),
  );
  // A line of the block starts with the folder it describes: `src/areas/<area>/` stands for each.
  const named = block
    .split('\n')
    .map((line) => line.match(/^(\.?[\w<>-]+\/(?:[\w<>-]+\/)*)\s/)?.[1])
    .filter((folder) => folder !== undefined);
  const describes = (folder: string) =>
    named.some((entry) => {
      const segments = entry.split('/').filter(Boolean);
      const parts = folder.split('/');
      return (
        segments.length === parts.length &&
        segments.every((segment, i) => segmentPattern(segment).test(parts[i] ?? ''))
      );
    });
  const folders = [
    ...new Set(
      REPOSITORY_FILES.flatMap((file) =>
        file
          .split('/')
          .slice(0, -1)
          .map((_, i, all) => all.slice(0, i + 1).join('/')),
      ),
    ),
  ];

  // A folder holding only folders (src/engines/) is described by its folders' lines.
  const holdsFiles = (folder: string) =>
    REPOSITORY_FILES.some((file) => posix.dirname(file) === folder);

  it('names every top-level folder and every folder of src/', () => {
    const required = folders.filter(
      (folder) => !folder.includes('/') || (folder.startsWith('src/') && holdsFiles(folder)),
    );
    expect(required).toContain('src/cli');
    expect(required.filter((folder) => !describes(folder))).toEqual([]);
  });
});

describe('a named path', () => {
  it('is found in prose, code spans and comments, without the sentence around it', () => {
    expect(
      namedPaths('see `test/unit/case-fold.test.ts`, (src/sql/) and fold.ts. Also tools/cluster/.'),
    ).toEqual(['test/unit/case-fold.test.ts', 'src/sql/', 'fold.ts', 'tools/cluster/']);
  });

  it('is not a URL, a route, a variable, a package or a data file', () => {
    expect(
      namedPaths(
        'http://127.0.0.1:8000/docs, GET /v1/user, "$PWD/data:/data", @fastify/static, ' +
          'users.csv, Node.js, ~/src/x.ts, $ROOT/src/y.ts',
      ),
    ).toEqual([]);
  });

  it('resolves when it exists, from the root, the file or src/', () => {
    expect(resolves('test/unit/case-fold.test.ts', 'src/domain/case-fold.ts')).toBe(true);
    expect(resolves('tools/cluster/', 'test/setup/postgres-cluster.ts')).toBe(true);
    expect(resolves('sql/counted.ts', 'src/engines/duckdb/port.ts')).toBe(true);
    expect(resolves('helpers/store.ts', 'test/api/auth.test.ts')).toBe(true);
    expect(resolves('fold.ts', 'README.md')).toBe(true);
    expect(resolves('data-contract.md', 'docs/api.md', 'link')).toBe(true);
  });

  it('does not resolve when the file was moved, renamed or never was', () => {
    expect(resolves('test/case-fold.test.ts', 'src/domain/case-fold.ts')).toBe(false);
    expect(resolves('src/engines/postgres/cluster.ts', 'test/setup/postgres-cluster.ts')).toBe(
      false,
    );
    expect(resolves('test/postgres/routing.test.ts', 'docs/scale-out.md')).toBe(false);
    expect(resolves('spending-platform-cases.test.ts', 'test/helpers/platform-cases.ts')).toBe(
      false,
    );
    expect(resolves('decisions.md', 'test/helpers/exact-figures.ts')).toBe(false);
    expect(resolves('docs/scale-out.md', 'docs/operations.md', 'link')).toBe(false);
  });

  it('may hold placeholders for any name', () => {
    expect(resolves('test/engines/<engine>/', 'README.md')).toBe(true);
    expect(resolves('bench/results/<time>-full.json', 'README.md')).toBe(true);
    expect(resolves('test/api/*.test.ts', 'README.md')).toBe(true);
    expect(resolves('src/...', 'README.md')).toBe(true);
    expect(resolves('src/areas/<area>/plugin.ts', 'README.md')).toBe(true);
    expect(resolves('src/areas/<area>/missing.ts', 'README.md')).toBe(false);
    expect(resolves('bench/cache/', 'README.md')).toBe(true);
  });
});

describe('comments', () => {
  it('are told from code, strings and regular expressions', () => {
    const source = [
      "const a = '// src/not-a-comment.ts'; // src/one.ts",
      'const b = /\\/\\/ src\\/x.ts/; /* src/two.ts */',
      '/** src/three.ts */',
      'function f() {',
      '  // src/four.ts',
      '}',
      '// src/five.ts',
    ].join('\n');
    expect(typeScriptComments(source).flatMap((comment) => namedPaths(comment))).toEqual([
      'src/one.ts',
      'src/two.ts',
      'src/three.ts',
      'src/four.ts',
      'src/five.ts',
    ]);
  });

  it('of shell, Python and Dockerfiles start with a # that starts a word', () => {
    expect(hashComments('#!/usr/bin/env bash\n# scripts/a.sh\necho "$#" # scripts/b.sh\n')).toEqual(
      ['# scripts/a.sh', '# scripts/b.sh'],
    );
  });
});
