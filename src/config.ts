import { isValid, parseISO } from 'date-fns';
import { z } from 'zod';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((value) => isValid(parseISO(value)), 'must be a real calendar date');

const positiveInt = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1, 'must be at least 1')
    .default(fallback);

const envSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d+$/, 'must be a port number')
    .transform(Number)
    .refine((n) => n >= 0 && n <= 65535, 'must be between 0 and 65535')
    .default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_PATH: z.string().min(1).default('data/finance.duckdb'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TODAY: isoDate.optional(),
  DB_POOL_SIZE: positiveInt(8),
  DUCKDB_THREADS: positiveInt(1),
  DUCKDB_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'must be a size such as 512MB')
    .default('1GB'),
});

export type Config = z.output<typeof envSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and validates the environment; empty variables count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name in envSchema.shape && value !== ''),
  );
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) =>
      `${issue.path.join('.')}=${JSON.stringify(present[String(issue.path[0])])}: ${issue.message}`,
  );
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}
