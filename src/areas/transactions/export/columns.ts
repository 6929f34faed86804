/**
 * A table as the file formats write it: its columns in order, each with the kind of value it
 * holds, and rows of the values the JSON answer shows (money as decimal text with two
 * decimals, dates as `YYYY-MM-DD`). The writers here know nothing of transactions: the area
 * names the columns.
 */

/** `text`: any string; `money`: decimal text with two decimals; `date`: `YYYY-MM-DD`. */
export type ColumnKind = 'text' | 'money' | 'date' | 'boolean';

export interface Column<Name extends string = string> {
  name: Name;
  kind: ColumnKind;
  /** The value may be null. */
  nullable: boolean;
}

export type CellValue = string | boolean | null;

/** One row: a value per column name. */
export type TableRow = Readonly<Record<string, CellValue>>;
