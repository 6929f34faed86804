/**
 * The byte-level scan of a CSV input file: what DuckDB's reader would refuse, with file lines,
 * and the line each record starts on (a quoted value may span lines). The build reads the file
 * with DuckDB; this scan runs only to word what went wrong or where a bad row is.
 */
import { createReadStream } from 'node:fs';

/** What scanCsv found in a CSV file. */
export interface CsvScan {
  /** Structural problems in file order (at most the limit asked for): `line` and `reason`. */
  problems: { line: number; reason: string }[];
  /** The first file line of each wanted record (0 = the first record after the header). */
  recordLines: Map<number, number>;
  /** The header's column names, as written (DuckDB renames a repeated one: `amount_1`). */
  header: string[];
}

/**
 * The longest CSV row build-db reads, in bytes. DuckDB's reader is given a little more
 * (inputs.ts), so a row it refuses for length is always one this scan reports with its line.
 */
export const MAX_CSV_RECORD_BYTES = 2 * 1024 * 1024;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

const byteText = (byte: number) => `0x${byte.toString(16).padStart(2, '0')}`;

/**
 * Reads a CSV file the way the build's DuckDB reader does (comma, `"` quoting with `""` inside,
 * LF, CRLF or CR line ends, blank lines skipped, a UTF-8 BOM ignored) and reports, with file
 * lines, what DuckDB would refuse: bytes that are not UTF-8, a record with another number of
 * fields than the header, a quoted value never closed, text after a closing quote. It also
 * maps records to the line they start on, which differs from the record number once a quoted
 * value spans lines, and reads the header's names. One pass over the bytes; stops as soon as it
 * has what it was asked for (with nothing asked, after the header).
 */
export async function scanCsv(
  path: string,
  options: { wanted?: ReadonlySet<number>; maxProblems?: number } = {},
): Promise<CsvScan> {
  const wanted = options.wanted ?? new Set<number>();
  const maxProblems = options.maxProblems ?? 0;
  const problems: CsvScan['problems'] = [];
  const recordLines = new Map<number, number>();
  const header: string[] = [];
  let headerBytes: number[] = [];
  let lastWanted = -1;
  for (const index of wanted) lastWanted = Math.max(lastWanted, index);

  let line = 1;
  let state: 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterQuote' = 'fieldStart';
  let fields = 0;
  let recordStarted = false;
  let recordLine = 1;
  let record = -1; // the header
  let expectedFields = 0;
  let quoteLine = 0;
  let afterCR = false;
  let atFileStart = true;
  // UTF-8: continuation bytes still expected, their allowed range, the sequence's lead byte.
  let utf8Pending = 0;
  let utf8Low = 0x80;
  let utf8High = 0xbf;
  let utf8Lead = 0;
  let utf8ReportedLine = 0;
  // Byte offset in the file of the byte being read, and of the current record's start.
  let position = 0;
  let recordStart = 0;

  /** A byte of a value: kept while the header is read. */
  const keep = (byte: number) => {
    if (record === -1) headerBytes.push(byte);
  };
  const endField = () => {
    if (record === -1) {
      header.push(Buffer.from(headerBytes).toString('utf8'));
      headerBytes = [];
    }
    fields++;
  };
  const report = (at: number, reason: string) => {
    if (problems.length < maxProblems) problems.push({ line: at, reason });
  };
  const done = () => problems.length >= maxProblems && record > lastWanted;
  const badUtf8 = (byte: number) => {
    if (utf8ReportedLine === line) return;
    utf8ReportedLine = line;
    report(line, `not valid UTF-8 (byte ${byteText(byte)}); save the file as UTF-8`);
  };
  const checkUtf8 = (byte: number) => {
    if (utf8Pending > 0) {
      if (byte >= utf8Low && byte <= utf8High) {
        utf8Pending--;
        utf8Low = 0x80;
        utf8High = 0xbf;
        return;
      }
      utf8Pending = 0;
      badUtf8(utf8Lead);
    }
    if (byte < 0x80) return;
    utf8Lead = byte;
    utf8Low = 0x80;
    utf8High = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) utf8Pending = 1;
    else if (byte >= 0xe0 && byte <= 0xef) {
      utf8Pending = 2;
      if (byte === 0xe0) utf8Low = 0xa0;
      if (byte === 0xed) utf8High = 0x9f;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      utf8Pending = 3;
      if (byte === 0xf0) utf8Low = 0x90;
      if (byte === 0xf4) utf8High = 0x8f;
    } else badUtf8(byte);
  };
  const startRecord = () => {
    if (recordStarted) return;
    recordStarted = true;
    recordLine = line;
    recordStart = position;
  };
  const endRecord = () => {
    if (!recordStarted) return; // a blank line holds no record
    const length = position - recordStart;
    if (length > MAX_CSV_RECORD_BYTES) {
      report(
        recordLine,
        `a row of ${length.toLocaleString('en-US')} bytes; build-db reads rows of at most ` +
          `${MAX_CSV_RECORD_BYTES.toLocaleString('en-US')} bytes (is a value pasted in by mistake?)`,
      );
    }
    endField();
    if (record === -1) expectedFields = fields;
    else {
      if (wanted.has(record)) recordLines.set(record, recordLine);
      if (fields !== expectedFields) {
        report(
          recordLine,
          `${fields} fields, but the header names ${expectedFields} columns` +
            (fields > expectedFields ? '; quote a value that holds a comma' : ''),
        );
      }
    }
    record++;
    fields = 0;
    recordStarted = false;
    state = 'fieldStart';
  };
  const newline = () => {
    // Inside a quoted value a line end is part of the value; elsewhere it ends the record.
    if (state !== 'quoted') endRecord();
    line++;
  };
  const strayAfterQuote = (byte: number) => {
    const shown = byte >= 0x20 && byte < 0x7f ? `'${String.fromCharCode(byte)}'` : byteText(byte);
    report(
      line,
      `unexpected ${shown} after the closing quote of a value; write a quote inside a quoted value as ""`,
    );
    state = 'unquoted';
  };

  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    let base = 0;
    scan: for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      if (atFileStart) {
        atFileStart = false;
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) start = 3;
      }
      for (let i = start; i < chunk.length; i++) {
        const byte = chunk[i] as number;
        position = base + i;
        checkUtf8(byte);
        if (byte === LF && afterCR) {
          afterCR = false;
          continue;
        }
        afterCR = byte === CR;
        if (byte === LF || byte === CR) {
          newline();
          if (done()) break scan;
          continue;
        }
        switch (state) {
          case 'fieldStart':
            startRecord();
            if (byte === QUOTE) {
              state = 'quoted';
              quoteLine = line;
            } else if (byte === COMMA) endField();
            else {
              keep(byte);
              state = 'unquoted';
            }
            break;
          case 'unquoted':
            if (byte === COMMA) {
              endField();
              state = 'fieldStart';
            } else keep(byte);
            break;
          case 'quoted':
            if (byte === QUOTE) state = 'quoteInQuoted';
            else keep(byte);
            break;
          case 'quoteInQuoted':
            if (byte === QUOTE) {
              keep(byte);
              state = 'quoted';
            } else if (byte === COMMA) {
              endField();
              state = 'fieldStart';
            } else if (byte === SPACE || byte === TAB) state = 'afterQuote';
            else strayAfterQuote(byte);
            break;
          case 'afterQuote':
            if (byte === COMMA) {
              endField();
              state = 'fieldStart';
            } else if (byte !== SPACE && byte !== TAB) strayAfterQuote(byte);
            break;
        }
      }
      base += chunk.length;
    }
    position = base;
    if (!done()) {
      if (utf8Pending > 0) badUtf8(utf8Lead);
      if (state === 'quoted') {
        report(
          quoteLine,
          'a quoted value starts here and is never closed; write a quote inside a quoted value as ""',
        );
      } else endRecord();
    }
  } finally {
    stream.destroy();
  }
  return { problems, recordLines, header };
}
