/**
 * PostgreSQL's binary COPY framing as the ledger read parses it (engines/postgres/binary-copy.ts):
 * the signature, flags and header extension, tuples of fields given by their lengths (-1: null),
 * the trailer; data cut short, or with anything after its trailer, is refused.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryCopyFormatError, binaryCopyTuples } from '../../src/engines/postgres/binary-copy.ts';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

const int16 = (value: number) => {
  const bytes = Buffer.alloc(2);
  bytes.writeInt16BE(value);
  return bytes;
};
const int32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
};

/** A binary COPY's data of `tuples`, as the server writes it. */
function copyData(tuples: (Uint8Array | null)[][], extension = Buffer.alloc(0)): Buffer {
  return Buffer.concat([
    SIGNATURE,
    int32(0),
    int32(extension.length),
    extension,
    ...tuples.flatMap((tuple) => [
      int16(tuple.length),
      ...tuple.flatMap((field) => (field === null ? [int32(-1)] : [int32(field.length), field])),
    ]),
    int16(-1),
  ]);
}

describe('binary COPY data', () => {
  it('gives back every tuple’s fields, bytes as they were and nulls as null', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.option(fc.uint8Array({ maxLength: 300 }), { nil: null })), {
          maxLength: 5,
        }),
        fc.uint8Array({ maxLength: 20 }),
        (tuples, extension) => {
          const parsed = binaryCopyTuples(copyData(tuples, Buffer.from(extension)));
          expect(
            parsed.map((tuple) => tuple.map((field) => field && new Uint8Array(field))),
          ).toEqual(tuples);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads no rows from a COPY of none', () => {
    expect(binaryCopyTuples(copyData([]))).toEqual([]);
  });

  it('refuses data that is not a binary COPY’s, is cut short, or runs on after its end', () => {
    const whole = copyData([[Buffer.from('ledger bytes')]]);
    const refused = [
      Buffer.alloc(0),
      Buffer.from('hello, world: not a copy at all'),
      Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\x01', 'latin1'), whole.subarray(11)]),
      // OIDs included (flag bit 16).
      Buffer.concat([SIGNATURE, int32(1 << 16), whole.subarray(15)]),
      ...Array.from({ length: whole.length - 1 }, (_, cut) => whole.subarray(0, cut)),
      Buffer.concat([whole, Buffer.from([0])]),
    ];
    for (const data of refused) {
      expect(() => binaryCopyTuples(data), data.toString('hex')).toThrow(BinaryCopyFormatError);
    }
  });
});
