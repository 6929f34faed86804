import { type ParseArgsConfig, parseArgs } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** A wrong command line: reported with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type ParsedValues<T extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>
>['values'];

/**
 * Parses options strictly (no positionals). `--help` prints `help` on stdout and exits 0.
 * Unknown options and missing values become a UsageError.
 */
export function parseCliArgs<T extends OptionsConfig>(
  help: string,
  options: T,
  args: string[] = process.argv.slice(2),
): ParsedValues<T> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${help.trim()}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function requireOption<V>(value: V | undefined, name: string): V {
  if (value === undefined || value === '')
    throw new UsageError(`missing required option --${name}`);
  return value;
}

export function parseIntegerOption(
  value: string | undefined,
  name: string,
  { min = 0, fallback }: { min?: number; fallback?: number } = {},
): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`missing required option --${name}`);
    return fallback;
  }
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be an integer >= ${min}, got '${value}'`);
  }
  return Number(value);
}

/**
 * Runs a CLI's main: messages go to stderr; exit 2 on usage errors, 1 on any other failure
 * (set DEBUG=1 for the stack).
 */
export async function runCli(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${error.message}\nRun with --help for usage.\n`);
      process.exitCode = 2;
    } else {
      // Failures are expected here (bad data, missing files): the message, not a stack.
      const detail =
        error instanceof Error ? (process.env.DEBUG ? error.stack : error.message) : String(error);
      process.stderr.write(`${name}: ${detail}\n`);
      process.exitCode = 1;
    }
  }
}
