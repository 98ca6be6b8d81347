/**
 * A minimal protobuf writer for tests: builds messages field by field so tests can state
 * exact bytes (negative varints, packed lists, unknown fields, truncations) without a
 * protobuf library.
 */

/** ProtoField is one encoded field (tag plus value). */
export type ProtoField = Uint8Array;

/** varint encodes an unsigned or negative (two's complement, 10 bytes) integer. */
export function varint(value: number | bigint): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? low | 0x80 : low);
  } while (v > 0n);
  return Uint8Array.from(out);
}

const key = (field: number, wireType: number) => varint(field * 8 + wireType);

/** concat joins byte arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}

/** int is a varint field (int32, int64, bool, enum). */
export function int(field: number, value: number | bigint | boolean): ProtoField {
  return concat(key(field, 0), varint(typeof value === 'boolean' ? Number(value) : value));
}

/** bytes is a length-delimited field holding raw bytes. */
export function bytes(field: number, value: Uint8Array): ProtoField {
  return concat(key(field, 2), varint(value.length), value);
}

/** str is a length-delimited UTF-8 string field. */
export function str(field: number, value: string): ProtoField {
  return bytes(field, new TextEncoder().encode(value));
}

/** msg is an embedded message field made of `fields`. */
export function msg(field: number, ...fields: ProtoField[]): ProtoField {
  return bytes(field, concat(...fields));
}

/** entry is one `map<string, string>` entry. */
export function entry(field: number, mapKey: string, value: string): ProtoField {
  return msg(field, str(1, mapKey), str(2, value));
}

/** fixed32 and fixed64 are the fixed-width wire types (5 and 1), little-endian. */
export function fixed32(field: number, value: number): ProtoField {
  const buf = new Uint8Array(4);
  new DataView(buf.buffer).setUint32(0, value, true);
  return concat(key(field, 5), buf);
}

export function fixed64(field: number, value: bigint): ProtoField {
  const buf = new Uint8Array(8);
  new DataView(buf.buffer).setBigUint64(0, value, true);
  return concat(key(field, 1), buf);
}

/** envelope wraps an object message in Kubernetes' `k8s\0` + runtime.Unknown envelope. */
export function envelope(apiVersion: string, kind: string, ...objectFields: ProtoField[]): Uint8Array {
  return concat(Uint8Array.of(0x6b, 0x38, 0x73, 0x00), msg(1, str(1, apiVersion), str(2, kind)), msg(2, ...objectFields));
}
