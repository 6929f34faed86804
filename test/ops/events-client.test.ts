/**
 * examples/follow-events.ts, the typed client of GET /v2/users/events, as a user runs it: against
 * the real server process while a change set is applied (it syncs on ready, then on the
 * `changed` the change set brings, with the counts the event announced), and on its own
 * (--help, wrong usage, an API it cannot reach).
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyChanges } from '../../src/ingest/duckdb/apply.ts';
import { writeChangeSet } from '../helpers/changing-store.ts';
import { eventually } from '../helpers/faults.ts';
import {
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  REPO_ROOT,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server.ts';
import { queryStoreFile } from '../helpers/store.ts';

const run = promisify(execFile);
const CLIENT = ['--import', 'tsx', 'examples/follow-events.ts'];
const USER = DEMO_USERS[0] as string;

async function client(args: string[], env: Record<string, string | undefined>) {
  return run(process.execPath, [...CLIENT, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_TOKEN: undefined, API_BASE_URL: 'http://127.0.0.1:9', ...env },
    timeout: 20_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

describe('examples/follow-events.ts against the running server', () => {
  let server: ServerProcess;
  let path: string;
  let token: string;

  beforeAll(async () => {
    const demo = await demoStoreCopy([USER]);
    path = demo.path;
    token = demo.tokens[0] as string;
    server = await startServerProcess({
      DATABASE_PATH: path,
      TODAY: DEMO_TODAY,
      STORE_WATCH_DEBOUNCE_MS: '50',
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('syncs once ready, then on the change set’s `changed`, with the counts it announced', async () => {
    const child = spawn(process.execPath, [...CLIENT, '--events', '1'], {
      cwd: REPO_ROOT,
      env: { ...process.env, API_TOKEN: token, API_BASE_URL: server.url },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(await eventually(async () => output.includes('synced from nothing'), 20_000)).toBe(true);
    const [account] = await queryStoreFile<{ id: string }>(
      path,
      'SELECT id FROM accounts WHERE user_id = $1 ORDER BY id LIMIT 1',
      [USER],
    );
    const changesDir = await writeChangeSet({
      upserts: {
        transactions: [
          {
            id: 'txn_follow_events_1',
            user_id: USER,
            account_id: account?.id as string,
            transacted_at: DEMO_TODAY,
            amount: '4.20',
            direction: 'DEBIT',
            description: 'COFFEE',
            category: 'Food and Drink',
          },
        ],
      },
    });
    await applyChanges({ changesDir, databasePath: path });
    expect(await exited, output).toBe(0);
    const lines = output.trim().split('\n');
    expect(lines[0]).toMatch(/^ready at [0-9a-f]+$/);
    expect(lines[1]).toMatch(
      /^ {2}synced from nothing \(first\): \d+ added, 0 modified, 0 removed$/,
    );
    expect(lines[2]).toMatch(
      /^changed [0-9a-f]+ -> [0-9a-f]+ \(transactions\): 1 added, 0 modified, 0 removed$/,
    );
    expect(lines[3]).toBe(
      '  synced from the cursor kept (changed): 1 added, 0 modified, 0 removed',
    );
  });
});

describe('examples/follow-events.ts on its own', () => {
  it('prints its help and exits 0', async () => {
    const { code, stdout } = await client(['--help'], {});
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: API_TOKEN=pat_...');
    expect(stdout).toContain('Last-Event-ID');
  });

  it('exits 2 on wrong usage, saying what is wrong', async () => {
    for (const [args, env, message] of [
      [['--events', '0'], { API_TOKEN: 'pat_x' }, '--events must be at least 1'],
      [['--events', 'many'], { API_TOKEN: 'pat_x' }, '--events must be a whole number'],
      [[], {}, 'set API_TOKEN'],
      [['--nope'], { API_TOKEN: 'pat_x' }, 'Unknown option'],
    ] as const) {
      const { code, stderr } = await client([...args], env);
      expect([code, stderr]).toEqual([2, expect.stringContaining(message)]);
    }
  });

  it('exits 1 when the API cannot be reached', async () => {
    const { code, stderr } = await client([], { API_TOKEN: 'pat_x' });
    expect(code).toBe(1);
    expect(stderr).toContain('follow-events: the API could not be reached');
  });
});
