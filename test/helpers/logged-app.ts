/**
 * An app that logs as the server does (the production logger options, token masking
 * included) into memory, for tests that read what was logged.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { loggerOptions } from '../../src/http/log-redaction.ts';

export interface LoggedApp {
  app: FastifyInstance;
  /** The log lines written so far, one JSON object each, without the newline. */
  lines: string[];
  /** Every line so far, newline-separated: what a log file would hold. */
  text(): string;
}

export async function buildLoggedApp(
  level: string,
  options: Omit<AppOptions, 'logger'>,
): Promise<LoggedApp> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp({ ...options, logger: { ...loggerOptions(level), stream } });
  return { app, lines, text: () => lines.join('\n') };
}
