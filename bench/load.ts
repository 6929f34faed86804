/**
 * HTTP load with autocannon, from the bench's process (never the server's). Every request is
 * drawn afresh (random user, random variant for mixes); latencies are the exact per-request
 * times autocannon reports on its `response` event.
 */
import autocannon from 'autocannon';
import { peakRssMiB, resetPeakRss } from './process.ts';
import { type DrawnRequest, type Scenario, seededRandom, type Users } from './scenarios.ts';
import { type Measured, summarize } from './stats.ts';

function requestFor(drawn: DrawnRequest) {
  const headers: Record<string, string> = {};
  if (drawn.token) headers.authorization = `Bearer ${drawn.token}`;
  return { method: 'GET', path: drawn.path, headers };
}

function run(
  url: string,
  scenario: Scenario,
  users: Users,
  seconds: number,
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
        duration: seconds,
        timeout: 30,
        requests: [
          {
            setupRequest: () => {
              const drawn = scenario.draw(random, users);
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

/** Warms up (unmeasured: prepares statements on every pooled connection), then measures. */
export async function measureHttp(options: {
  url: string;
  pid: number;
  scenario: Scenario;
  users: Users;
  seconds: number;
  warmupSeconds: number;
  seed: number;
  /** Requests sent to this server so far (user token + path), shared across scenarios. */
  seen: Set<string>;
}): Promise<{ measured: Measured; repeatShare: number }> {
  const { url, pid, scenario, users, seen } = options;
  const remember = (drawn: DrawnRequest) => seen.add(`${drawn.token} ${drawn.path}`);
  if (scenario.prewarm) {
    const requests = scenario.prewarm(users);
    const failed = await sendOnce(url, requests, 16);
    if (failed > 0) throw new Error(`${scenario.name}: ${failed} prewarm requests failed`);
    for (const request of requests) remember(request);
  }
  if (options.warmupSeconds > 0) {
    await run(url, scenario, users, options.warmupSeconds, options.seed + 500_000, null, remember);
  }
  await resetPeakRss(pid);
  const latencies: number[] = [];
  let drawn = 0;
  let repeats = 0;
  const result = await run(
    url,
    scenario,
    users,
    options.seconds,
    options.seed,
    (ms) => latencies.push(ms),
    (request) => {
      const key = `${request.token} ${request.path}`;
      drawn++;
      if (seen.has(key)) repeats++;
      else seen.add(key);
    },
  );
  return {
    measured: summarize(latencies, result.seconds, result.errors, await peakRssMiB(pid)),
    repeatShare: drawn === 0 ? 0 : repeats / drawn,
  };
}
