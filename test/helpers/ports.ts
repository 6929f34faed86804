import { createServer } from 'node:net';

// Below Linux's ephemeral range (32768-60999): servers started on port 0 and outgoing
// connections of other test files take ports there, so a run chosen inside it can be taken
// between the check and the start.
const LOWEST = 20_000;
const SPAN = 12_000;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive free ports, outside the range the system hands out. */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = LOWEST + Math.floor(Math.random() * (SPAN - count));
    const ports = Array.from({ length: count }, (_, k) => base + k);
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports`);
}
