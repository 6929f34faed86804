/**
 * What the example clients share as command-line tools: one-line errors with exit codes (2 for
 * wrong usage, pointing at --help) and the API's error bodies made readable.
 */

/** `fail` and `usageError` for the tool named `name`. */
export function toolErrors(name: string) {
  const fail = (code: number, message: string): never => {
    process.stderr.write(`${name}: ${message}\n`);
    process.exit(code);
  };
  return {
    fail,
    /** A wrong command line or environment: what is wrong, where to read more, exit code 2. */
    usageError: (message: string): never => fail(2, `${message}\nRun with --help for usage.`),
  };
}

/** The `detail` of an error body: a string, or pydantic's list of field errors. */
export function describeError(status: number, error: unknown): string {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return `${status} ${detail}`;
  if (Array.isArray(detail)) {
    const fields = detail.map((item: { loc?: unknown[]; msg?: string }) => {
      return `${(item.loc ?? []).join('.')}: ${item.msg ?? ''}`;
    });
    return `${status} ${fields.join('; ')}`;
  }
  return `${status} ${JSON.stringify(error)}`;
}
