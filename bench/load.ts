/**
 * HTTP load with autocannon, from the bench's process (never the server's). Every request is
 * drawn afresh (random user, random variant for mixes); latencies are the exact per-request
 * times autocannon reports on its `response` event.
 */
import autocannon from 'autocannon';
import { scrapeWorkingSet, type WorkingSetRun, workingSetRun } from './metrics.ts';
import { peakRssMiB, resetPeakRss } from './process.ts';
import { type DrawnRequest, type Scenario, seededRandom, type Users } from './scenarios.ts';
import { type Measured, summarize } from './stats.ts';

function requestFor(drawn: DrawnRequest) {
  const headers: Record<string, string> = {};
  if (drawn.token) headers.authorization = `Bearer ${drawn.token}`;
  return { method: 'GET', path: drawn.path, headers };
}

/**
 * Draws and sends requests for `seconds`, or until `maxRequests` were answered: autocannon
 * draws a connection's next request as it sends one, and one more per connection before the
 * first, so at most `maxRequests + connections` are drawn.
 */
function run(
  url: string,
  scenario: Scenario,
  users: Users,
  touched: ReadonlySet<string>,
  limits: { seconds: number; maxRequests?: number },
  seed: number,
  onLatency: ((ms: number, ok: boolean) => void) | null,
  onDraw: (drawn: DrawnRequest) => void,
): Promise<{ errors: number; seconds: number }> {
  const random = seededRandom(seed);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: scenario.connections,
        duration: limits.seconds,
        ...(limits.maxRequests === undefined ? {} : { maxOverallRequests: limits.maxRequests }),
        timeout: 30,
        requests: [
          {
            setupRequest: () => {
              const drawn = scenario.draw(random, users, touched);
              onDraw(drawn);
              return requestFor(drawn);
            },
          },
        ],
      },
      (error, result) => {
        if (error) reject(error);
        else
          resolve({
            errors: result.errors + result.timeouts + result.non2xx,
            seconds: result.duration,
          });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      onLatency?.(ms, status >= 200 && status < 300);
    });
  });
}

/** Sends each request once (unmeasured), `connections` at a time. */
export function sendOnce(
  url: string,
  requests: readonly DrawnRequest[],
  connections: number,
): Promise<number> {
  if (requests.length === 0) return Promise.resolve(0);
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: Math.min(connections, requests.length),
        amount: requests.length,
        timeout: 30,
        requests: [
          {
            setupRequest: () => requestFor(requests[next++ % requests.length] as DrawnRequest),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result.errors + result.non2xx)),
    );
  });
}

/**
 * What a scenario draws from the requests it could still draw (Scenario.supply): a quarter for
 * the warmup at most, the rest for the measured run, each less the draws autocannon makes ahead.
 */
function budget(scenario: Scenario, users: Users, touched: ReadonlySet<string>, share: number) {
  if (!scenario.supply) return undefined;
  const requests = Math.floor(scenario.supply(users, touched) * share) - scenario.connections;
  if (requests < 1) {
    throw new Error(`${scenario.name}: nothing left to draw (every user was asked for already)`);
  }
  return requests;
}

/**
 * Warms up (unmeasured: prepares statements on every pooled connection), then measures. With a
 * metrics URL, also the working set's reads during the measured run.
 */
export async function measureHttp(options: {
  url: string;
  pid: number;
  metricsUrl?: string;
  scenario: Scenario;
  users: Users;
  seconds: number;
  warmupSeconds: number;
  seed: number;
  /** Requests sent to this server so far (user token + path), shared across scenarios. */
  seen: Set<string>;
  /** Tokens of the users sent to this server so far, shared across scenarios (Scenario.draw). */
  touched: Set<string>;
}): Promise<{
  measured: Measured;
  repeatShare: number;
  workingSet: WorkingSetRun | null;
  /** Peak resident set since the previous reset (the scenario's prewarm and warmup among it). */
  peakBeforeMiB: number | null;
}> {
  const { url, pid, scenario, users, seen, touched } = options;
  const remember = (drawn: DrawnRequest) => {
    seen.add(`${drawn.token} ${drawn.path}`);
    if (drawn.token) touched.add(drawn.token);
  };
  if (scenario.prewarm) {
    const requests = scenario.prewarm(users);
    const failed = await sendOnce(url, requests, 16);
    if (failed > 0) throw new Error(`${scenario.name}: ${failed} prewarm requests failed`);
    for (const request of requests) remember(request);
  }
  if (options.warmupSeconds > 0) {
    await run(
      url,
      scenario,
      users,
      touched,
      { seconds: options.warmupSeconds, maxRequests: budget(scenario, users, touched, 0.25) },
      options.seed + 500_000,
      null,
      remember,
    );
  }
  const peakBeforeMiB = await peakRssMiB(pid);
  await resetPeakRss(pid);
  const before = options.metricsUrl ? await scrapeWorkingSet(options.metricsUrl) : null;
  const latencies: number[] = [];
  let drawn = 0;
  let repeats = 0;
  const result = await run(
    url,
    scenario,
    users,
    touched,
    { seconds: options.seconds, maxRequests: budget(scenario, users, touched, 1) },
    options.seed,
    (ms) => latencies.push(ms),
    (request) => {
      const key = `${request.token} ${request.path}`;
      drawn++;
      if (seen.has(key)) repeats++;
      else seen.add(key);
      if (request.token) touched.add(request.token);
    },
  );
  const after = options.metricsUrl ? await scrapeWorkingSet(options.metricsUrl) : null;
  return {
    measured: summarize(latencies, result.seconds, result.errors, await peakRssMiB(pid)),
    repeatShare: drawn === 0 ? 0 : repeats / drawn,
    workingSet: before && after ? workingSetRun(before, after) : null,
    peakBeforeMiB,
  };
}
