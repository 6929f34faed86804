/**
 * Prometheus metrics on their own port: requests, latency, admission's queue, store query time,
 * generation, swaps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server.ts';
import { configOf, DEMO_TODAY, demoStoreCopy } from '../helpers/server.ts';
import { publishNewGeneration } from '../helpers/store.ts';

let server: RunningServer;
let token: string;
let path: string;

beforeAll(async () => {
  const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
  token = demo.tokens[0] as string;
  path = demo.path;
  server = await startServer(
    configOf({
      DATABASE_PATH: path,
      PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
      TODAY: DEMO_TODAY,
      STORE_WATCH: 'false',
      SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    }),
  );
});
afterAll(() => server?.close());

async function scrape(): Promise<string> {
  const response = await fetch(server.metricsUrl as string);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

function value(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

describe('metrics', () => {
  it('count requests by route and status, with latency, store query time and generation', async () => {
    const headers = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/v1/user`, { headers });
    await fetch(`${server.url}/v1/user`);
    await fetch(`${server.url}/no/such/${Math.random()}`);
    const text = await scrape();
    expect(
      value(text, 'http_requests_total{method="GET",route="/v1/user",status_code="200"}'),
    ).toBe(3);
    expect(
      value(text, 'http_requests_total{method="GET",route="/v1/user",status_code="401"}'),
    ).toBe(1);
    // Unknown URLs share one label: a scanner cannot grow the series.
    expect(
      value(text, 'http_requests_total{method="GET",route="unmatched",status_code="404"}'),
    ).toBe(1);
    expect(
      value(
        text,
        'http_request_duration_seconds_count{method="GET",route="/v1/user",status_code="200"}',
      ),
    ).toBe(3);
    expect(value(text, 'store_query_duration_seconds_count{outcome="ok"}')).toBeGreaterThanOrEqual(
      3,
    );
    expect(
      value(text, `store_generation_info{generation="${server.store.current.generation}"}`),
    ).toBe(1);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // Admission's queue: nothing runs or waits once the answers are in.
    expect(value(text, 'http_requests_running')).toBe(0);
    expect(value(text, 'http_requests_waiting')).toBe(0);
  });

  it('follow a store swap', async () => {
    const before = server.store.current.generation;
    await publishNewGeneration(path);
    expect(await server.reload('test')).toBe('swapped');
    const text = await scrape();
    expect(server.store.current.generation).not.toBe(before);
    expect(
      value(text, `store_generation_info{generation="${server.store.current.generation}"}`),
    ).toBe(1);
    expect(text).not.toContain(`generation="${before}"`);
    expect(value(text, 'store_reloads_total{outcome="swapped"}')).toBe(1);
  });

  it('are not served on the API port', async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(404);
  });

  it('are off unless METRICS_PORT is set', () => {
    expect(configOf({}).METRICS_PORT).toBeUndefined();
  });
});
