/**
 * encodeProtobuf writes a JSON object as the `application/vnd.kubernetes.protobuf` body a Go
 * client would send, driven by the same MessageType tables the server decodes with: the
 * inverse of decode-message.ts for the shapes test samples use. A field the tables do not
 * know, or a well-known type it cannot write, throws (naming the path), so a sample never
 * silently loses a field on the way in.
 */
import type { FieldSpec, MessageType, ScalarType } from '../../apiserver/api/protobuf/message-type.js';
import { bytes, envelope, int, msg, type ProtoField, str } from '../../apiserver/api/protobuf/testing/proto-writer.js';

/** encodeProtobuf is the enveloped body of `object` (apiVersion and kind from the object). */
export function encodeProtobuf(type: MessageType, object: Record<string, unknown>): Uint8Array {
  const { apiVersion, kind, ...rest } = object;
  return envelope(String(apiVersion), String(kind), ...encodeFields(type, rest, ''));
}

/** Well-known types (those with a toJson), written from their JSON form. */
const wellKnown: Record<string, (value: unknown) => ProtoField[]> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': (value) => [str(1, String(value))],
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': (value) => (typeof value === 'number' ? [int(1, 0), int(2, value)] : [int(1, 1), str(3, String(value))]),
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': (value) => [int(1, Math.floor(Date.parse(String(value)) / 1000))],
};

function encodeFields(type: MessageType, object: Record<string, unknown>, path: string): ProtoField[] {
  const out: ProtoField[] = [];
  const written = new Set<string>();
  for (const [number, spec] of Object.entries(type.fields)) {
    if (spec.inline) {
      // An embedded struct is its own message on the wire, made of the parent's keys it declares.
      const innerKeys = jsonNames(spec.type as MessageType);
      const inner = Object.fromEntries(Object.entries(object).filter(([key]) => innerKeys.includes(key)));
      if (Object.keys(inner).length > 0) out.push(msg(Number(number), ...encodeFields(spec.type as MessageType, inner, path)));
      for (const key of innerKeys) written.add(key);
      continue;
    }
    const value = object[spec.json];
    if (value === undefined || value === null) continue;
    written.add(spec.json);
    out.push(...encodeField(Number(number), spec, value, `${path}.${spec.json}`));
  }
  const unknown = Object.keys(object).filter((key) => !written.has(key) && object[key] !== undefined);
  if (unknown.length > 0) throw new Error(`the protobuf table ${type.name} has no field ${unknown.map((key) => `${path}.${key}`).join(', ')}`);
  return out;
}

/** jsonNames lists the JSON keys a message produces, its own inline structs' keys included
 * (NamedRuleWithOperations inlines RuleWithOperations, which inlines Rule). */
function jsonNames(type: MessageType): string[] {
  return Object.values(type.fields).flatMap((inner) => (inner.inline ? jsonNames(inner.type as MessageType) : [inner.json]));
}

function encodeField(number: number, spec: FieldSpec, value: unknown, path: string): ProtoField[] {
  switch (spec.cardinality) {
    case 'repeated':
      return (value as unknown[]).map((item, i) => encodeValue(number, spec.type, item, `${path}[${i}]`));
    case 'map':
      return Object.entries(value as Record<string, unknown>).map(([key, item]) => msg(number, str(1, key), encodeValue(2, spec.type, item, `${path}.${key}`)));
    default:
      return [encodeValue(number, spec.type, value, path)];
  }
}

function encodeValue(number: number, type: ScalarType | MessageType, value: unknown, path: string): ProtoField {
  if (typeof type === 'string') return encodeScalar(number, type, value);
  if (type.toJson) {
    const write = wellKnown[type.name];
    if (!write) throw new Error(`cannot write ${type.name} at ${path}: leave it out of the sample`);
    return msg(number, ...write(value));
  }
  return msg(number, ...encodeFields(type, value as Record<string, unknown>, path));
}

function encodeScalar(number: number, type: ScalarType, value: unknown): ProtoField {
  switch (type) {
    case 'string':
      return str(number, String(value));
    case 'bytes':
      return bytes(number, Buffer.from(String(value), 'base64'));
    case 'bool':
      return int(number, Boolean(value));
    default:
      return int(number, Number(value));
  }
}
