/**
 * One Parquet file, written as its rows arrive (hyparquet-writer, pure JavaScript): the magic
 * bytes first, then a row group of exactly `rowGroupRows` rows whenever that many are buffered
 * (the last one fewer), the footer last; each piece is handed over as soon as it is encoded,
 * so about a row group sits in memory however long the file, and the same rows make the same
 * bytes however they arrive. Money is DECIMAL(38,2) (exact: from the decimal text to integer
 * cents, never a float), dates DATE, booleans BOOLEAN, text UTF-8 strings; Snappy-compressed
 * pages, as DuckDB, pandas and Arrow read by default.
 */
import type { ColumnSource, SchemaElement } from 'hyparquet-writer';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { dayNumber } from '../../../domain/calendar.ts';
import { centsOf } from '../../../domain/money.ts';
import type { CellValue, Column, ColumnKind, TableRow } from './columns.ts';

/** A writer whose bytes are taken away as they are written: what was taken is not kept. */
class HandingWriter extends ByteWriter {
  take(): Uint8Array {
    // A copy: the buffer is written over from its start again.
    const bytes = this.getBytes().slice();
    this.index = 0;
    return bytes;
  }
}

const PRECISION = 38;
const SCALE = 2;

function schemaElement(column: Column): SchemaElement {
  const repetition_type = column.nullable ? 'OPTIONAL' : 'REQUIRED';
  const name = column.name;
  switch (column.kind) {
    case 'text':
      return {
        name,
        repetition_type,
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
      };
    case 'money':
      // 38 digits need 16 bytes of two's complement.
      return {
        name,
        repetition_type,
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 16,
        converted_type: 'DECIMAL',
        precision: PRECISION,
        scale: SCALE,
        logical_type: { type: 'DECIMAL', precision: PRECISION, scale: SCALE },
      };
    case 'date':
      return {
        name,
        repetition_type,
        type: 'INT32',
        converted_type: 'DATE',
        logical_type: { type: 'DATE' },
      };
    case 'boolean':
      return { name, repetition_type, type: 'BOOLEAN' };
  }
}

function stored(kind: ColumnKind, value: CellValue): string | boolean | bigint | number | null {
  if (value === null || kind === 'text' || kind === 'boolean') return value;
  if (typeof value !== 'string') throw new TypeError(`a ${kind} column holds text`);
  // Money as the unscaled value of a DECIMAL(38,2); a date as days since 1970-01-01.
  return kind === 'money' ? centsOf(value) : dayNumber(value);
}

export interface ParquetTable {
  /** The file's first bytes (the magic number). */
  start(): Uint8Array;
  /** Buffers rows; a full row group's bytes once there is one, else nothing. */
  rows(rows: readonly TableRow[]): Uint8Array;
  /** The last row group, if rows are buffered, and the footer. */
  end(): Uint8Array;
}

/** A Parquet file of `columns`, in row groups of `rowGroupRows` rows (the last one fewer). */
export function parquetTable(columns: readonly Column[], rowGroupRows: number): ParquetTable {
  const writer = new HandingWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)],
  });
  let pending: TableRow[] = [];
  /** One row group of the first `size` buffered rows. */
  const writeGroup = (size: number) => {
    const group = pending.slice(0, size);
    pending = pending.slice(size);
    const columnData: ColumnSource[] = columns.map((column) => ({
      name: column.name,
      data: group.map((row) => stored(column.kind, row[column.name] ?? null)),
    }));
    parquet.write({ columnData, rowGroupSize: size });
  };
  return {
    start: () => writer.take(),
    rows(rows) {
      pending.push(...rows);
      while (pending.length >= rowGroupRows) writeGroup(rowGroupRows);
      return writer.take();
    },
    end() {
      if (pending.length > 0) writeGroup(pending.length);
      parquet.finish();
      return writer.take();
    },
  };
}
