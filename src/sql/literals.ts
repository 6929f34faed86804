/** Literals and identifiers spelled into SQL text, quoted the same way in both dialects. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
