/**
 * A user's packed ledger: every transaction of one user in the list's order (newest first:
 * `transacted_at` descending, then `id` descending), laid out once by build-db (and again by a
 * change set for the users it touches) as one byte string, the `ledgers` derived table's
 * `packed` column. The working set (port/working-set/) holds these bytes as they are and reads
 * them in place: no JavaScript value per row is ever built to hold a ledger, so what it counts
 * is what memory holds. docs/data-contract.md ("The packed ledger") documents the layout; this
 * file is its one definition, writer (packLedger) and reader (LedgerBytes) side by side.
 *
 * Layout, little-endian, every array aligned to its element size:
 *
 *   header   magic `FLDG`, format version (u16), flags (u16: CENTS_F64, DAYS_U32), rows (u32),
 *            the day number the days count from (i32), section count (u32), then per section
 *            its id, byte offset and byte length (u32 each)
 *   DAYS     per row, its day number minus the base: u16 (u32 with DAYS_U32)
 *   CENTS    per row, the amount in cents: i32 (f64 with CENTS_F64, exact below 2^53)
 *   FLAGS    per row, LEDGER_FLAGS and CREDIT (u8)
 *   CATEGORY per row, the index of its category in the taxonomy (u8)
 *   ACCOUNT, DESCRIPTION, MERCHANT, SUBCATEGORY, CODE: dictionary columns
 *   ID, EXTERNAL_ID: text columns
 *   ID_ORDER per position in id order (code point order, as the engines compare ids), the row
 *            (u16 below 65,536 rows, else u32)
 *   ACCOUNTS the user's accounts as the store lists them (by id), JSON text (UTF-8): with them
 *            a user's first answer needs nothing else from the store
 *
 * A dictionary column holds the distinct texts once: entry count (u32), index width (u8: 1, 2
 * or 4), flags (u8: ASCII, OFFSETS_U32), two bytes of padding, then per row the index of its
 * text (0: null, 1..n the entries), the entries' end offsets into the text bytes (u16, or u32
 * with OFFSETS_U32; entry i spans from entry i-1's end), and the text bytes (UTF-8).
 *
 * A text column (texts that rarely repeat) is either `packed`: every value the same length
 * after a common prefix, in an alphabet of at most 64 ASCII characters, each character's index
 * in the alphabet in a fixed number of bits (random 24-character ids take 15 bytes instead of
 * 24); or `heap`: the UTF-8 bytes one after another with each value's end offset (u32). Either
 * way a null bitmap follows when a value is null.
 */
import { Buffer } from 'node:buffer';

/**
 * Node's own slicing decoders, which Buffer's toString calls after checking its arguments:
 * called directly, a short text costs half as much, and a ledger reads texts by the thousand.
 */
interface Decoders {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
const decoders = (bytes: Uint8Array) => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer as Buffer & Decoders;
};

/** The bits of a row's flags, as the engines compute them (sql/counted.ts, ledgerFlagsSql). */
export const LEDGER_FLAGS = {
  hidden: 1,
  internalTransfer: 2,
  investmentAccount: 4,
  /** A DEBIT to an investment platform (the stored `to_platform`). */
  toPlatform: 8,
  /** Spending rules 1-4 hold: the user's own account, not hidden, not internal, not investment. */
  counted: 16,
} as const;

/** The flag bit of a CREDIT (a DEBIT has none). */
export const CREDIT = 32;

/** The layout's version: raise it with any change of the bytes (and the store format with it). */
export const PACKED_LEDGER_VERSION = 1;

/** The derived table of packed ledgers, one row per user. */
export const LEDGERS_TABLE = 'ledgers';

const MAGIC = 0x47444c46; // 'FLDG' read as a little-endian u32

/** Header flags. */
const CENTS_F64 = 1;
const DAYS_U32 = 2;

/** Dictionary flags. */
const ASCII = 1;
const OFFSETS_U32 = 2;

/** Text column modes. */
const HEAP = 0;
const PACKED = 1;

export const SECTIONS = {
  days: 1,
  cents: 2,
  flags: 3,
  category: 4,
  account: 5,
  description: 6,
  merchant: 7,
  subcategory: 8,
  code: 9,
  id: 10,
  externalId: 11,
  idOrder: 12,
  accounts: 13,
} as const;

const HEADER_BYTES = 20;
const SECTION_ENTRY_BYTES = 12;

/** The text columns a ledger holds, in the layout's names. */
export const LEDGER_TEXTS = [
  'id',
  'externalId',
  'account',
  'description',
  'merchant',
  'subcategory',
  'code',
] as const;
export type LedgerText = (typeof LEDGER_TEXTS)[number];

/** Texts that repeat, held once each. */
const DICTIONARY_TEXTS = ['account', 'description', 'merchant', 'subcategory', 'code'] as const;

/**
 * One user's transactions to pack, newest first, column by column. Texts are UTF-8 bytes in
 * `source`: per row a start and an end, a start of -1 for a null.
 */
export interface LedgerInput {
  rows: number;
  days: Int32Array;
  /** Integer cents, each exact (integers below 2^53). */
  cents: Float64Array;
  /** LEDGER_FLAGS, with CREDIT for a CREDIT. */
  flags: Uint8Array;
  /** The category's index in the taxonomy (domain/taxonomy.ts CATEGORIES). */
  categories: Uint8Array;
  source: Uint8Array;
  texts: Record<LedgerText, { starts: Int32Array; ends: Int32Array }>;
  /** The user's accounts, by id, as JSON text in UTF-8 (the store's AccountRecord fields). */
  accounts: Uint8Array;
}

/** A user whose ledger this layout cannot hold exactly: the engine answers for them. */
export class LedgerTooLargeError extends Error {}

const align = (offset: number, to: number) => Math.ceil(offset / to) * to;

/** Bytes grown section by section, each array at an offset aligned to its element size. */
class Writer {
  private bytes = new Uint8Array(4096);
  length = 0;

  private reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + more) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  align(to: number): void {
    const next = align(this.length, to);
    this.reserve(next - this.length);
    this.bytes.fill(0, this.length, next);
    this.length = next;
  }

  /** `count` bytes at an offset aligned to `alignment`, zeroed; their offset. */
  take(count: number, alignment = 1): number {
    this.align(alignment);
    this.reserve(count);
    const at = this.length;
    this.bytes.fill(0, at, at + count);
    this.length += count;
    return at;
  }

  /** Appends `bytes` (taking room first: taking may move the buffer). */
  put(bytes: Uint8Array): void {
    const at = this.take(bytes.length);
    this.bytes.set(bytes, at);
  }

  view(): DataView {
    return new DataView(this.bytes.buffer, 0, this.length);
  }

  raw(): Uint8Array {
    return this.bytes;
  }

  /** The bytes written, in a buffer of their own size. */
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** A typed array for `count` unsigned values up to `max`: u8, u16 or u32, by width. */
function indexWidth(max: number): 1 | 2 | 4 {
  return max <= 0xff ? 1 : max <= 0xffff ? 2 : 4;
}

function writeUnsigned(view: DataView, at: number, width: 1 | 2 | 4, value: number): void {
  if (width === 1) view.setUint8(at, value);
  else if (width === 2) view.setUint16(at, value, true);
  else view.setUint32(at, value, true);
}

/** Writes a null bitmap (bit set: null) for column `starts` if any value is null. */
function writeNulls(out: Writer, starts: Int32Array, rows: number): boolean {
  let anyNull = false;
  for (let row = 0; row < rows; row++) if ((starts[row] as number) < 0) anyNull = true;
  if (!anyNull) return false;
  const at = out.take(Math.ceil(rows / 8));
  const raw = out.raw();
  for (let row = 0; row < rows; row++) {
    if ((starts[row] as number) < 0)
      raw[at + (row >> 3)] = (raw[at + (row >> 3)] as number) | (1 << (row & 7));
  }
  return true;
}

function writeDictionary(
  out: Writer,
  input: LedgerInput,
  column: { starts: Int32Array; ends: Int32Array },
): void {
  const { rows, source } = input;
  const decoder = decoders(source);
  const entries = new Map<string, number>();
  const order: [start: number, end: number][] = [];
  const indexOf = new Uint32Array(rows);
  let ascii = true;
  let textBytes = 0;
  for (let row = 0; row < rows; row++) {
    const start = column.starts[row] as number;
    if (start < 0) continue;
    const end = column.ends[row] as number;
    const key = decoder.latin1Slice(start, end);
    let index = entries.get(key);
    if (index === undefined) {
      index = order.length + 1;
      entries.set(key, index);
      order.push([start, end]);
      textBytes += end - start;
      for (let at = start; at < end && ascii; at++)
        if ((source[at] as number) >= 0x80) ascii = false;
    }
    indexOf[row] = index;
  }
  const width = indexWidth(order.length);
  const wide = textBytes > 0xffff;
  const header = out.take(8, 4);
  let view = out.view();
  view.setUint32(header, order.length, true);
  view.setUint8(header + 4, width);
  view.setUint8(header + 5, (ascii ? ASCII : 0) | (wide ? OFFSETS_U32 : 0));
  const indexes = out.take(rows * width, width);
  const offsetWidth = wide ? 4 : 2;
  const offsets = out.take(order.length * offsetWidth, offsetWidth);
  const texts = out.take(textBytes);
  view = out.view();
  const raw = out.raw();
  for (let row = 0; row < rows; row++) {
    writeUnsigned(view, indexes + row * width, width, indexOf[row] as number);
  }
  let end = 0;
  order.forEach(([from, to], entry) => {
    raw.set(source.subarray(from, to), texts + end);
    end += to - from;
    writeUnsigned(view, offsets + entry * offsetWidth, offsetWidth as 2 | 4, end);
  });
}

/** The packed form of a text column, when every value fits it; else null. */
function packedShape(
  source: Uint8Array,
  column: { starts: Int32Array; ends: Int32Array },
  rows: number,
): { prefix: Uint8Array; length: number; alphabet: Uint8Array; bits: number } | null {
  let first = -1;
  for (let row = 0; row < rows && first < 0; row++)
    if ((column.starts[row] as number) >= 0) first = row;
  if (first < 0) return null;
  const firstStart = column.starts[first] as number;
  const fullLength = (column.ends[first] as number) - firstStart;
  let prefix = fullLength;
  const seen = new Uint8Array(128);
  for (let row = 0; row < rows; row++) {
    const start = column.starts[row] as number;
    if (start < 0) continue;
    if ((column.ends[row] as number) - start !== fullLength) return null;
    let common = 0;
    while (common < prefix && source[start + common] === source[firstStart + common]) common++;
    prefix = common;
    for (let at = start; at < start + fullLength; at++) {
      const byte = source[at] as number;
      if (byte >= 0x80) return null;
    }
  }
  for (let row = 0; row < rows; row++) {
    const start = column.starts[row] as number;
    if (start < 0) continue;
    for (let at = start + prefix; at < start + fullLength; at++) seen[source[at] as number] = 1;
  }
  const alphabet: number[] = [];
  seen.forEach((present, code) => {
    if (present) alphabet.push(code);
  });
  if (alphabet.length > 64) return null;
  const bits = Math.max(1, Math.ceil(Math.log2(Math.max(2, alphabet.length))));
  return {
    prefix: source.slice(firstStart, firstStart + prefix),
    length: fullLength - prefix,
    alphabet: Uint8Array.from(alphabet),
    bits,
  };
}

/**
 * mode (u8), has-nulls (u8), then for `heap`: two bytes of padding, the end offsets (u32 per
 * row) and the bytes; for `packed`: prefix length (u8), alphabet length (u8), value length
 * (u16), bits per character (u8), then the prefix, the alphabet and the values (each
 * ceil(length x bits / 8) bytes, most significant bit first); then the null bitmap.
 */
function writeText(
  out: Writer,
  input: LedgerInput,
  column: { starts: Int32Array; ends: Int32Array },
): void {
  const { rows, source } = input;
  const shape = packedShape(source, column, rows);
  const header = out.take(4, 4);
  let view = out.view();
  let anyNull = false;
  for (let row = 0; row < rows; row++) if ((column.starts[row] as number) < 0) anyNull = true;
  view.setUint8(header, shape ? PACKED : HEAP);
  view.setUint8(header + 1, anyNull ? 1 : 0);
  if (!shape) {
    let total = 0;
    for (let row = 0; row < rows; row++) {
      const start = column.starts[row] as number;
      if (start >= 0) total += (column.ends[row] as number) - start;
    }
    const ends = out.take(rows * 4, 4);
    const bytes = out.take(total);
    view = out.view();
    const raw = out.raw();
    let end = 0;
    for (let row = 0; row < rows; row++) {
      const start = column.starts[row] as number;
      if (start >= 0) {
        raw.set(source.subarray(start, column.ends[row] as number), bytes + end);
        end += (column.ends[row] as number) - start;
      }
      view.setUint32(ends + row * 4, end, true);
    }
  } else {
    const { prefix, alphabet, length, bits } = shape;
    const fields = out.take(6);
    view = out.view();
    view.setUint8(fields, prefix.length);
    view.setUint8(fields + 1, alphabet.length);
    view.setUint16(fields + 2, length, true);
    view.setUint8(fields + 4, bits);
    out.put(prefix);
    out.put(alphabet);
    const codeOf = new Uint8Array(128);
    alphabet.forEach((code, index) => {
      codeOf[code] = index;
    });
    const stride = Math.ceil((length * bits) / 8);
    const values = out.take(rows * stride);
    const raw = out.raw();
    for (let row = 0; row < rows; row++) {
      const start = column.starts[row] as number;
      if (start < 0) continue;
      // Codes shifted into an accumulator, whole bytes written out most significant first.
      let at = values + row * stride;
      let acc = 0;
      let held = 0;
      for (let char = start + prefix.length; char < start + prefix.length + length; char++) {
        acc = (acc << bits) | (codeOf[source[char] as number] as number);
        held += bits;
        if (held >= 8) {
          held -= 8;
          raw[at++] = acc >>> held;
          acc &= (1 << held) - 1;
        }
      }
      if (held > 0) raw[at] = acc << (8 - held);
    }
  }
  if (anyNull) writeNulls(out, column.starts, rows);
}

/** Row indexes by id in code point order (UTF-8 bytes compare as code points do). */
function idOrder(input: LedgerInput): number[] {
  const { rows, source } = input;
  const bytes = decoders(source);
  // Each id's bytes as a Latin-1 string, so the native string sort compares them byte by byte,
  // followed by its row (ids are unique and hold no NUL: the row never decides an order).
  const keys = Array.from(
    { length: rows },
    (_, row) =>
      `${bytes.latin1Slice(input.texts.id.starts[row] as number, input.texts.id.ends[row] as number)}\u0000${row}`,
  );
  keys.sort();
  return keys.map((key) => Number(key.slice(key.lastIndexOf('\u0000') + 1)));
}

/** The packed bytes of one user's ledger. Throws LedgerTooLargeError when it cannot be held exactly. */
export function packLedger(input: LedgerInput): Uint8Array {
  const { rows } = input;
  let base = 0;
  let span = 0;
  let cents32 = true;
  let total = 0;
  if (rows > 0) {
    base = input.days[rows - 1] as number;
    span = (input.days[0] as number) - base;
  }
  for (let row = 0; row < rows; row++) {
    const cents = input.cents[row] as number;
    if (!Number.isSafeInteger(cents)) throw new LedgerTooLargeError(`an amount of ${cents} cents`);
    if (cents < -0x80000000 || cents > 0x7fffffff) cents32 = false;
    total += Math.abs(cents);
  }
  // Sums of the amounts are computed in doubles: exact only while they stay below 2^53.
  if (!Number.isSafeInteger(total))
    throw new LedgerTooLargeError('amounts summing past 2^53 cents');
  const days32 = span > 0xffff;
  const out = new Writer();
  const sectionIds = Object.values(SECTIONS);
  out.take(HEADER_BYTES + sectionIds.length * SECTION_ENTRY_BYTES, 8);
  const at: Record<number, [offset: number, length: number]> = {};
  const section = (id: number, write: () => void, alignment = 8) => {
    out.align(alignment);
    const start = out.length;
    write();
    at[id] = [start, out.length - start];
  };
  section(SECTIONS.days, () => {
    const width = days32 ? 4 : 2;
    const from = out.take(rows * width, width);
    const view = out.view();
    for (let row = 0; row < rows; row++) {
      writeUnsigned(view, from + row * width, width, (input.days[row] as number) - base);
    }
  });
  section(SECTIONS.cents, () => {
    const width = cents32 ? 4 : 8;
    const from = out.take(rows * width, width);
    const view = out.view();
    for (let row = 0; row < rows; row++) {
      const cents = input.cents[row] as number;
      if (cents32) view.setInt32(from + row * 4, cents, true);
      else view.setFloat64(from + row * 8, cents, true);
    }
  });
  section(SECTIONS.flags, () => out.put(input.flags.subarray(0, rows)));
  section(SECTIONS.category, () => out.put(input.categories.subarray(0, rows)));
  for (const name of DICTIONARY_TEXTS) {
    section(SECTIONS[name], () => writeDictionary(out, input, input.texts[name]));
  }
  section(SECTIONS.id, () => writeText(out, input, input.texts.id));
  section(SECTIONS.externalId, () => writeText(out, input, input.texts.externalId));
  section(SECTIONS.accounts, () => out.put(input.accounts));
  section(SECTIONS.idOrder, () => {
    const width = rows > 0xffff ? 4 : 2;
    const from = out.take(rows * width, width);
    const view = out.view();
    idOrder(input).forEach((row, position) => {
      writeUnsigned(view, from + position * width, width, row);
    });
  });
  const view = out.view();
  view.setUint32(0, MAGIC, true);
  view.setUint16(4, PACKED_LEDGER_VERSION, true);
  view.setUint16(6, (cents32 ? 0 : CENTS_F64) | (days32 ? DAYS_U32 : 0), true);
  view.setUint32(8, rows, true);
  view.setInt32(12, base, true);
  view.setUint32(16, sectionIds.length, true);
  sectionIds.forEach((id, index) => {
    const entry = HEADER_BYTES + index * SECTION_ENTRY_BYTES;
    const [offset, length] = at[id] as [number, number];
    view.setUint32(entry, id, true);
    view.setUint32(entry + 4, offset, true);
    view.setUint32(entry + 8, length, true);
  });
  return out.done();
}

/** Bytes that are not a packed ledger this code reads. */
export class LedgerFormatError extends Error {}

/** The packed ledger's version, or null when the bytes are not one. */
export function packedLedgerVersion(bytes: Uint8Array): number | null {
  if (bytes.byteLength < HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(0, true) === MAGIC ? view.getUint16(4, true) : null;
}

type Unsigned = Uint8Array | Uint16Array | Uint32Array;

function unsignedArray(
  buffer: ArrayBuffer,
  offset: number,
  count: number,
  width: number,
): Unsigned {
  if (width === 1) return new Uint8Array(buffer, offset, count);
  if (width === 2) return new Uint16Array(buffer, offset, count);
  return new Uint32Array(buffer, offset, count);
}

/** A dictionary column read in place. */
export class DictionaryView {
  /** Per row, its entry (0: null). */
  readonly of: Unsigned;
  /** Entries, null (0) included: texts are numbered 1..size-1. */
  readonly size: number;
  private readonly ends: Uint16Array | Uint32Array;
  private readonly textsAt: number;
  private readonly ascii: boolean;

  constructor(
    private readonly bytes: Buffer & Decoders,
    at: number,
    rows: number,
  ) {
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, 8);
    const entries = view.getUint32(0, true);
    const width = view.getUint8(4);
    const flags = view.getUint8(5);
    this.size = entries + 1;
    this.ascii = (flags & ASCII) !== 0;
    const buffer = bytes.buffer as ArrayBuffer;
    let offset = bytes.byteOffset + at + 8;
    offset = align(offset, width);
    this.of = unsignedArray(buffer, offset, rows, width);
    offset += rows * width;
    const offsetWidth = flags & OFFSETS_U32 ? 4 : 2;
    offset = align(offset, offsetWidth);
    this.ends =
      offsetWidth === 4
        ? new Uint32Array(buffer, offset, entries)
        : new Uint16Array(buffer, offset, entries);
    this.textsAt = offset + entries * offsetWidth - bytes.byteOffset;
  }

  /** Entry `index`'s text (null for 0). */
  text(index: number): string | null {
    if (index === 0) return null;
    const start = index === 1 ? 0 : (this.ends[index - 2] as number);
    const end = this.ends[index - 1] as number;
    const from = this.textsAt + start;
    const to = this.textsAt + end;
    return this.ascii ? this.bytes.latin1Slice(from, to) : this.bytes.utf8Slice(from, to);
  }

  get(row: number): string | null {
    return this.text(this.of[row] as number);
  }

  /** Where entry `index`'s text (index 1..size-1) lies in the ledger's bytes: [start, end). */
  span(index: number): [start: number, end: number] {
    const start = index === 1 ? 0 : (this.ends[index - 2] as number);
    return [this.textsAt + start, this.textsAt + (this.ends[index - 1] as number)];
  }
}

/** A text column read in place. */
export class TextView {
  private readonly get_: (row: number) => string | null;
  /** Whether row `row`'s text is null. */
  readonly isNull: (row: number) => boolean;
  /** Where row `row`'s text lies in the ledger's bytes ([start, end)): heap columns only. */
  readonly span: ((row: number) => [start: number, end: number]) | null = null;

  constructor(bytes: Buffer & Decoders, at: number, rows: number) {
    const base = bytes.byteOffset + at;
    const view = new DataView(bytes.buffer, base, 4);
    const mode = view.getUint8(0);
    const hasNulls = view.getUint8(1) === 1;
    const buffer = bytes.buffer as ArrayBuffer;
    let nullsAt = 0;
    let value: (row: number) => string;
    if (mode === HEAP) {
      const endsAt = align(base + 4, 4);
      const ends = new Uint32Array(buffer, endsAt, rows);
      const textsAt = endsAt + rows * 4 - bytes.byteOffset;
      const total = rows > 0 ? (ends[rows - 1] as number) : 0;
      nullsAt = textsAt + total;
      this.span = (row) => [
        textsAt + (row === 0 ? 0 : (ends[row - 1] as number)),
        textsAt + (ends[row] as number),
      ];
      value = (row) =>
        bytes.utf8Slice(
          textsAt + (row === 0 ? 0 : (ends[row - 1] as number)),
          textsAt + (ends[row] as number),
        );
    } else {
      const fields = new DataView(buffer, base + 4, 6);
      const prefixLength = fields.getUint8(0);
      const alphabetLength = fields.getUint8(1);
      const length = fields.getUint16(2, true);
      const bits = fields.getUint8(4);
      const prefixAt = at + 10;
      const prefix = bytes.latin1Slice(prefixAt, prefixAt + prefixLength);
      const alphabetAt = prefixAt + prefixLength;
      const alphabet = Array.from(bytes.subarray(alphabetAt, alphabetAt + alphabetLength), (code) =>
        String.fromCharCode(code),
      );
      const valuesAt = alphabetAt + alphabetLength;
      const stride = Math.ceil((length * bits) / 8);
      nullsAt = valuesAt + rows * stride;
      const mask = (1 << bits) - 1;
      value = (row) => {
        let text = prefix;
        let bit = 0;
        const from = valuesAt + row * stride;
        for (let char = 0; char < length; char++) {
          // The character's bits, possibly across two bytes: read 16 bits from its first byte.
          const byte = from + (bit >> 3);
          const word = ((bytes[byte] as number) << 8) | ((bytes[byte + 1] ?? 0) as number);
          const code = (word >> (16 - (bit & 7) - bits)) & mask;
          text += alphabet[code] as string;
          bit += bits;
        }
        return text;
      };
    }
    this.isNull = hasNulls
      ? (row) => (((bytes[nullsAt + (row >> 3)] as number) >> (row & 7)) & 1) === 1
      : () => false;
    if (!hasNulls) this.get_ = value;
    else this.get_ = (row) => (this.isNull(row) ? null : value(row));
  }

  get(row: number): string | null {
    return this.get_(row);
  }
}

/** A packed ledger read in place: typed arrays over its bytes, texts decoded when asked for. */
export class LedgerBytes {
  /** The user's accounts, by id, as JSON text (decoded when asked: it is held as bytes). */
  accountsJson(): string {
    const [offset, length] = this.accountsAt;
    return this.buffer.utf8Slice(offset, offset + length);
  }

  /** The accounts section's bytes (JSON text in UTF-8), a view of the ledger's own. */
  accountsBytes(): Uint8Array {
    const [offset, length] = this.accountsAt;
    return this.bytes.subarray(offset, offset + length);
  }

  readonly rows: number;
  /** The day number the days count from: a row's day number is `dayBase + days[row]`. */
  readonly dayBase: number;
  readonly days: Uint16Array | Uint32Array;
  /** Integer cents, exact: their sums too (packLedger refuses a ledger whose sums would not be). */
  readonly cents: Int32Array | Float64Array;
  readonly flags: Uint8Array;
  readonly categories: Uint8Array;
  readonly accounts: DictionaryView;
  readonly descriptions: DictionaryView;
  readonly merchants: DictionaryView;
  readonly subcategories: DictionaryView;
  readonly codes: DictionaryView;
  readonly ids: TextView;
  readonly externalIds: TextView;
  /** Rows by id, in code point order. */
  readonly idOrder: Uint16Array | Uint32Array;
  private readonly buffer: Buffer & Decoders;
  private readonly accountsAt: [offset: number, length: number];

  /** The ledger's bytes, in a buffer of their own (aligned, and holding nothing else). */
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.byteLength) {
      bytes = bytes.slice();
    }
    this.bytes = bytes;
    if (Buffer.from(new Uint16Array([1]).buffer)[0] !== 1) {
      throw new LedgerFormatError('packed ledgers are read on little-endian machines only');
    }
    const version = packedLedgerVersion(bytes);
    if (version !== PACKED_LEDGER_VERSION) {
      throw new LedgerFormatError(
        version === null
          ? 'not a packed ledger'
          : `packed ledger version ${version} (this server reads ${PACKED_LEDGER_VERSION})`,
      );
    }
    const buffer = decoders(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const flags = view.getUint16(6, true);
    const rows = view.getUint32(8, true);
    this.rows = rows;
    this.dayBase = view.getInt32(12, true);
    const sections = new Map<number, [offset: number, length: number]>();
    const count = view.getUint32(16, true);
    for (let index = 0; index < count; index++) {
      const entry = HEADER_BYTES + index * SECTION_ENTRY_BYTES;
      sections.set(view.getUint32(entry, true), [
        view.getUint32(entry + 4, true),
        view.getUint32(entry + 8, true),
      ]);
    }
    const offsetOf = (id: number) => {
      const offset = sections.get(id)?.[0];
      if (offset === undefined) throw new LedgerFormatError(`packed ledger without section ${id}`);
      return offset;
    };
    const ab = bytes.buffer as ArrayBuffer;
    const at = (id: number) => bytes.byteOffset + offsetOf(id);
    this.days =
      flags & DAYS_U32
        ? new Uint32Array(ab, at(SECTIONS.days), rows)
        : new Uint16Array(ab, at(SECTIONS.days), rows);
    this.cents =
      flags & CENTS_F64
        ? new Float64Array(ab, at(SECTIONS.cents), rows)
        : new Int32Array(ab, at(SECTIONS.cents), rows);
    this.flags = new Uint8Array(ab, at(SECTIONS.flags), rows);
    this.categories = new Uint8Array(ab, at(SECTIONS.category), rows);
    this.accounts = new DictionaryView(buffer, offsetOf(SECTIONS.account), rows);
    this.descriptions = new DictionaryView(buffer, offsetOf(SECTIONS.description), rows);
    this.merchants = new DictionaryView(buffer, offsetOf(SECTIONS.merchant), rows);
    this.subcategories = new DictionaryView(buffer, offsetOf(SECTIONS.subcategory), rows);
    this.codes = new DictionaryView(buffer, offsetOf(SECTIONS.code), rows);
    this.ids = new TextView(buffer, offsetOf(SECTIONS.id), rows);
    this.externalIds = new TextView(buffer, offsetOf(SECTIONS.externalId), rows);
    this.idOrder =
      rows > 0xffff
        ? new Uint32Array(ab, at(SECTIONS.idOrder), rows)
        : new Uint16Array(ab, at(SECTIONS.idOrder), rows);
    this.buffer = buffer;
    this.accountsAt = [offsetOf(SECTIONS.accounts), sections.get(SECTIONS.accounts)?.[1] ?? 0];
  }
}

/**
 * The packer's input back from a ledger's bytes, its rows in its order, and its accounts:
 * packLedger makes the same bytes of it. Texts point into the ledger's own bytes (the source's
 * first part), but for bit-packed ones, written out after them; the accounts are a view of the
 * ledger's accounts section.
 */
export function unpackLedger(bytes: Uint8Array): LedgerInput {
  const ledger = new LedgerBytes(bytes);
  const { rows } = ledger;
  const column = () => ({ starts: new Int32Array(rows), ends: new Int32Array(rows) });
  const texts = Object.fromEntries(
    LEDGER_TEXTS.map((name) => [name, column()]),
  ) as LedgerInput['texts'];
  const dictionaries = {
    account: ledger.accounts,
    description: ledger.descriptions,
    merchant: ledger.merchants,
    subcategory: ledger.subcategories,
    code: ledger.codes,
  };
  for (const name of DICTIONARY_TEXTS) {
    const dictionary = dictionaries[name];
    const spans = Array.from({ length: dictionary.size }, (_, index) =>
      index === 0 ? [-1, -1] : dictionary.span(index),
    );
    const { starts, ends } = texts[name];
    for (let row = 0; row < rows; row++) {
      const [start, end] = spans[dictionary.of[row] as number] as [number, number];
      starts[row] = start;
      ends[row] = end;
    }
  }
  const own = ledger.bytes.length;
  const written: [at: number, text: string][] = [];
  let length = own;
  for (const [name, view] of [
    ['id', ledger.ids],
    ['externalId', ledger.externalIds],
  ] as const) {
    const { starts, ends } = texts[name];
    for (let row = 0; row < rows; row++) {
      if (view.isNull(row)) {
        starts[row] = -1;
        ends[row] = -1;
      } else if (view.span) {
        [starts[row], ends[row]] = view.span(row);
      } else {
        // A packed text is ASCII: a character per byte.
        const text = view.get(row) as string;
        written.push([length, text]);
        starts[row] = length;
        length += text.length;
        ends[row] = length;
      }
    }
  }
  const source = Buffer.alloc(length);
  source.set(ledger.bytes);
  for (const [at, text] of written) source.write(text, at, 'latin1');
  return {
    rows,
    days: Int32Array.from(ledger.days, (day) => ledger.dayBase + day),
    cents: Float64Array.from(ledger.cents),
    flags: ledger.flags.slice(),
    categories: ledger.categories.slice(),
    source,
    texts,
    accounts: ledger.accountsBytes(),
  };
}
