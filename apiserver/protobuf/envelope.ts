/**
 * The Kubernetes protobuf envelope: the 4 magic bytes `k8s\0` followed by a runtime.Unknown
 * message {1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType}
 * (k8s.io/apimachinery/pkg/runtime generated.proto), where `raw` holds the object's own
 * message. Anything else is refused with a ProtobufError.
 */
import { ProtobufError, ProtobufReader, WireTypes } from '../api/protobuf/wire.js';

/** PROTOBUF_MAGIC prefixes every Kubernetes protobuf body. */
export const PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** Envelope is a decoded runtime.Unknown; `raw` reads the object's message in place. */
export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: ProtobufReader;
}

/** decodeEnvelope checks the magic number and unwraps runtime.Unknown. Throws a
 * ProtobufError for a missing magic number, malformed bytes or an encoded payload. */
export function decodeEnvelope(body: Uint8Array): Envelope {
  if (!hasMagic(body)) {
    throw new ProtobufError('the body does not start with the Kubernetes protobuf magic number 6b 38 73 00 ("k8s\\0")', 0);
  }
  const reader = new ProtobufReader(body, PROTOBUF_MAGIC.length);
  const envelope: Envelope = { apiVersion: '', kind: '', raw: new ProtobufReader(body, body.length) };
  while (!reader.done()) {
    const at = reader.offset;
    const { field, wireType } = reader.tag();
    if (field > 4) {
      reader.skip(wireType);
      continue;
    }
    if (wireType !== WireTypes.bytes) throw new ProtobufError(`runtime.Unknown field ${field} has wire type ${wireType}, expected 2`, at);
    if (field === 1) Object.assign(envelope, typeMeta(reader.message()));
    else if (field === 2) envelope.raw = reader.message();
    else refuseEncoding(field, reader.string(), at);
  }
  return envelope;
}

function hasMagic(body: Uint8Array): boolean {
  return body.length >= PROTOBUF_MAGIC.length && PROTOBUF_MAGIC.every((byte, i) => body[i] === byte);
}

function typeMeta(reader: ProtobufReader): { apiVersion: string; kind: string } {
  const meta = { apiVersion: '', kind: '' };
  while (!reader.done()) {
    const at = reader.offset;
    const { field, wireType } = reader.tag();
    if (field !== 1 && field !== 2) {
      reader.skip(wireType);
      continue;
    }
    if (wireType !== WireTypes.bytes) throw new ProtobufError(`TypeMeta field ${field} has wire type ${wireType}, expected 2`, at);
    meta[field === 1 ? 'apiVersion' : 'kind'] = reader.string();
  }
  return meta;
}

/** Kubernetes writes neither contentEncoding (3) nor contentType (4); a compressed or
 * foreign payload in `raw` cannot be read as the object's message. */
function refuseEncoding(field: number, value: string, at: number): void {
  if (value === '') return;
  if (field === 3) throw new ProtobufError(`runtime.Unknown contentEncoding ${JSON.stringify(value)} is not supported`, at);
  if (value !== 'application/vnd.kubernetes.protobuf') {
    throw new ProtobufError(`runtime.Unknown contentType ${JSON.stringify(value)} is not supported`, at);
  }
}
