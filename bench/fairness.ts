/**
 * Fairness under a flood, against the real server process on loopback: what a polite client
 * (one spending analysis at a time, each once the last answer came) gets while flooding clients
 * ask as fast as their connections allow, against its fair share:
 *
 *   npx tsx bench/fairness.ts [--users 19] [--heavy 300000] [--tokens 6] [--connections 240]
 *
 * The store is a bench store (bench/stores.ts: generated, built and cached): --users typical
 * users plus one of --heavy transactions. The flooding tokens are the heavy user's and
 * typical users' (one token a user), spread over --connections connections (each connection
 * keeps one token), asking spending analyses of random windows and, one request in eight, the
 * user's whole transaction list unpaginated. The polite client is another typical user. It
 * first asks alone for --window seconds, then the flood runs for --seconds, and the answers
 * are counted over --window seconds from --ramp seconds into it. Its fair share is the answers
 * (200s) the server gave in that window divided by the clients asking (the tokens and the
 * polite client). Prints the counts, the polite client's latencies, and the server's peak
 * resident memory (VmHWM). The server runs with the defaults, but RATE_LIMIT_MAX=0 unless
 * --env says otherwise.
 */
import autocannon from 'autocannon';
import { parseCliArgs, parseIntegerOption, runCli, UsageError } from '../src/cli/args.ts';
import { ensureClusterStore, startBenchCluster, stopBenchCluster } from './cluster.ts';
import { peakRssMiB, resetPeakRss, startServer } from './process.ts';
import { TODAY } from './scenarios.ts';
import { ensureStore } from './stores.ts';

const HELP = `
Usage: npx tsx bench/fairness.ts [options]

A polite client's answers during a flood of several tokens, against its fair share (loopback
only, the real server process).

Options:
  --users N         typical users of the store (default 19; 10000 reuses the bench's store)
  --heavy N         transactions of the store's heavy user, a flooder (default 300000; 0: none)
  --tokens N        flooding tokens, one user each (default 6)
  --connections N   flood connections, each keeping one token (default 240)
  --seconds S       flood duration (default 15)
  --ramp S          seconds of flood before the answers are counted (default 4)
  --window S        seconds the answers are counted, alone and during the flood (default 8)
  --backend NAME    duckdb (default) or postgres (a local cluster under bench/cache)
  --env NAME=VALUE  a server setting (repeatable)
  -h, --help        show this help
`;

const GROUP_BYS = ['category', 'merchant', 'time_period'] as const;
const PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;

/** A spending analysis of a random window of the trailing 14 months. */
function randomSpendingPath(): string {
  const day = (offset: number) => {
    const date = new Date(`${TODAY}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - offset);
    return date.toISOString().slice(0, 10);
  };
  const end = Math.floor(Math.random() * 120);
  const start = end + 1 + Math.floor(Math.random() * 300);
  const groupBy = GROUP_BYS[Math.floor(Math.random() * GROUP_BYS.length)];
  const period = PERIODS[Math.floor(Math.random() * PERIODS.length)];
  return `/v2/users/spending?group_by=${groupBy}&time_period=${period}&start_date=${day(start)}&end_date=${day(end)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

const between = (times: readonly number[], from: number, to: number) =>
  times.filter((at) => at >= from && at < to).length;

await runCli('fairness', async () => {
  const args = parseCliArgs(HELP, {
    users: { type: 'string' },
    heavy: { type: 'string' },
    tokens: { type: 'string' },
    connections: { type: 'string' },
    seconds: { type: 'string' },
    ramp: { type: 'string' },
    window: { type: 'string' },
    backend: { type: 'string' },
    env: { type: 'string', multiple: true },
  });
  const users = parseIntegerOption(args.users, 'users', { min: 2, fallback: 19 });
  const heavy = parseIntegerOption(args.heavy, 'heavy', { min: 0, fallback: 300_000 });
  const tokenCount = parseIntegerOption(args.tokens, 'tokens', { min: 1, fallback: 6 });
  const connections = parseIntegerOption(args.connections, 'connections', {
    min: 1,
    fallback: 240,
  });
  const seconds = parseIntegerOption(args.seconds, 'seconds', { min: 1, fallback: 15 });
  const ramp = parseIntegerOption(args.ramp, 'ramp', { min: 0, fallback: 4 });
  const window = parseIntegerOption(args.window, 'window', { min: 1, fallback: 8 });
  const backend = args.backend ?? 'duckdb';
  if (!['duckdb', 'postgres'].includes(backend)) {
    throw new UsageError(`--backend must be duckdb or postgres, got '${backend}'`);
  }
  if (ramp + window > seconds) {
    throw new UsageError(`--ramp plus --window (${ramp + window} s) must fit in --seconds`);
  }
  const env = Object.fromEntries(
    (args.env ?? []).map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new UsageError(`--env takes NAME=VALUE, got '${pair}'`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const progress = (line: string) => process.stderr.write(`${line}\n`);

  // 10,000 typical users with a heavy one of 500,000 is the bench's main store, reused.
  const label = `${users}u-${heavy}h`;
  const store = await ensureStore(
    { label, users, months: 14, seed: 'bench', heavyUserTransactions: heavy },
    { rebuild: false, progress },
  );
  const flooders = [...(store.heavy ? [store.heavy] : []), ...store.typical].slice(0, tokenCount);
  const polite = store.typical[tokenCount];
  if (flooders.length < tokenCount || !polite) {
    throw new UsageError(`--tokens ${tokenCount} needs more than ${users} users`);
  }
  const databaseUrl =
    backend === 'postgres'
      ? await ensureClusterStore(await startBenchCluster(progress), store, progress)
      : undefined;
  const server = await startServer({
    databasePath: store.databasePath,
    ...(databaseUrl ? { databaseUrl } : {}),
    env: { MALLOC_ARENA_MAX: '2', LOG_LEVEL: 'warn', TODAY, RATE_LIMIT_MAX: '0', ...env },
    progress,
  });
  try {
    const ask = async (token: string, path: string) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      return response.status;
    };
    // Every client's user read once (their ledgers held, as in steady traffic).
    for (const user of [...flooders, polite]) {
      await ask(user.token, '/v2/users/spending?group_by=category&time_period=month');
    }
    await resetPeakRss(server.pid);

    const politeAnswers: { at: number; status: number; ms: number }[] = [];
    let politeRunning = true;
    const politeLoop = (async () => {
      while (politeRunning) {
        const started = performance.now();
        const status = await ask(polite.token, randomSpendingPath()).catch(() => 0);
        politeAnswers.push({ at: Date.now(), status, ms: performance.now() - started });
      }
    })();
    const aloneFrom = Date.now();
    await sleep(window * 1000);
    const aloneTo = Date.now();

    // Each connection keeps one token, dealt in turn.
    let dealt = 0;
    const floodAnswers = flooders.map(() => [] as number[]);
    const floodStatuses = new Map<number, number>();
    const floodFrom = Date.now();
    await new Promise<void>((resolve, reject) => {
      autocannon(
        {
          url: server.url,
          connections,
          duration: seconds,
          timeout: 30,
          requests: [
            {
              setupRequest(request, context) {
                context.client ??= dealt++ % flooders.length;
                const user = flooders[context.client as number];
                const path =
                  Math.random() < 1 / 8 ? '/v2/users/transactions' : randomSpendingPath();
                return {
                  ...request,
                  method: 'GET',
                  path,
                  headers: { authorization: `Bearer ${user?.token}` },
                };
              },
              onResponse(status, _body, context) {
                floodStatuses.set(status, (floodStatuses.get(status) ?? 0) + 1);
                if (status === 200) floodAnswers[context.client as number]?.push(Date.now());
              },
            },
          ],
        },
        (error) => (error ? reject(error) : resolve()),
      );
    });
    politeRunning = false;
    await politeLoop;
    const peak = await peakRssMiB(server.pid);

    const from = floodFrom + ramp * 1000;
    const to = from + window * 1000;
    const politeDuring = politeAnswers.filter((answer) => answer.at >= from && answer.at < to);
    const politeOk = politeDuring.filter((answer) => answer.status === 200).length;
    const perToken = floodAnswers.map((times) => between(times, from, to));
    const floodOk = perToken.reduce((sum, n) => sum + n, 0);
    const share = (floodOk + politeOk) / (flooders.length + 1);
    const median = percentile(perToken, 0.5);
    const alone = politeAnswers.filter((answer) => answer.at >= aloneFrom && answer.at < aloneTo);
    const statuses = (answers: { status: number }[]) => {
      const counts = new Map<number, number>();
      for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
      return [...counts].map(([status, n]) => `${status}: ${n}`).join(', ');
    };
    const ms = (answers: { ms: number }[], p: number) =>
      percentile(
        answers.map((answer) => answer.ms),
        p,
      ).toFixed(1);
    const load = (await import('node:os')).loadavg().map((n) => n.toFixed(2));
    const lines = [
      `${backend}, store ${label} (${store.transactions} transactions), ${flooders.length} flooding tokens over ${connections} connections, ${seconds} s; load ${load.join(' ')}`,
      `polite alone: ${alone.length} answers in ${window} s (${statuses(alone)}); ms p50 ${ms(alone, 0.5)}, p90 ${ms(alone, 0.9)}`,
      `during the flood (${window} s from ${ramp} s in): polite ${politeOk} answers 200 (${statuses(politeDuring)}); ms p50 ${ms(politeDuring, 0.5)}, p90 ${ms(politeDuring, 0.9)}, max ${ms(politeDuring, 1)}`,
      `flood: ${floodOk} answers 200 in the window; per token min ${Math.min(...perToken)}, median ${median}, max ${Math.max(...perToken)}; all statuses: ${[...floodStatuses].map(([status, n]) => `${status}: ${n}`).join(', ')}`,
      `fair share ${share.toFixed(0)} (half: ${(share / 2).toFixed(0)}): polite got ${((100 * politeOk) / share).toFixed(0)}% of it, ${median > 0 ? ((100 * politeOk) / median).toFixed(0) : '-'}% of the median flooding token`,
      `server peak RSS: ${peak === null ? 'unknown' : `${peak.toFixed(0)} MiB`}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await server.stop();
    if (backend === 'postgres') await stopBenchCluster();
  }
});
