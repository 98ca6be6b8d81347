/**
 * encodeOpenApiV2 writes a Swagger 2.0 document (the JSON of openapi-v2.ts) as the protobuf
 * message kubectl and Helm unmarshal from `/openapi/v2`: gnostic's `openapi.v2.Document`
 * (github.com/google/gnostic-models, openapiv2/OpenAPIv2.proto; field numbers below are
 * that file's). Maps are repeated Named* entries in document order; free-form values
 * (vendor extensions, defaults, enums) are `Any` messages holding the value as YAML text,
 * which is what gnostic's compiler produces and what kube-openapi's readers parse (JSON text
 * is YAML). Only the parts of Swagger 2.0 that openapi-v2.ts emits are written.
 */
import { ProtobufWriter } from '../api/protobuf/writer.js';

type Json = Record<string, unknown>;

const entries = (value: unknown): Array<[string, unknown]> => (value && typeof value === 'object' ? Object.entries(value) : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** any writes an openapi.v2.Any: field 2 is the value as YAML (here JSON, a YAML subset). */
function any(w: ProtobufWriter, value: unknown): void {
  w.string(2, JSON.stringify(value));
}

/** vendorExtensions writes the `x-` keys of `object` as repeated NamedAny at `field`. */
function vendorExtensions(w: ProtobufWriter, field: number, object: Json): void {
  for (const [name, value] of Object.entries(object)) {
    if (name.startsWith('x-')) w.message(field, (e) => e.string(1, name).message(2, (a) => any(a, value)));
  }
}

/** schema writes an openapi.v2.Schema. */
function schema(w: ProtobufWriter, s: Json): void {
  w.string(1, text(s['$ref'])).string(2, text(s['format'])).string(3, text(s['title'])).string(4, text(s['description']));
  if ('default' in s) w.message(5, (a) => any(a, s['default']));
  w.double(6, num(s['multipleOf']))
    .double(7, num(s['maximum']))
    .bool(8, bool(s['exclusiveMaximum']))
    .double(9, num(s['minimum']))
    .bool(10, bool(s['exclusiveMinimum']))
    .int64(11, num(s['maxLength']))
    .int64(12, num(s['minLength']))
    .string(13, text(s['pattern']))
    .int64(14, num(s['maxItems']))
    .int64(15, num(s['minItems']))
    .bool(16, bool(s['uniqueItems']))
    .int64(17, num(s['maxProperties']))
    .int64(18, num(s['minProperties']))
    .strings(19, strings(s['required']));
  for (const value of Array.isArray(s['enum']) ? s['enum'] : []) w.message(20, (a) => any(a, value));
  const additional = s['additionalProperties'];
  if (typeof additional === 'boolean') w.message(21, (item) => item.oneofBool(2, additional));
  else if (additional && typeof additional === 'object') w.message(21, (item) => item.message(1, (inner) => schema(inner, additional as Json)));
  if (s['type'] !== undefined) w.message(22, (t) => t.strings(1, Array.isArray(s['type']) ? strings(s['type']) : [String(s['type'])]));
  const items = s['items'];
  if (items && typeof items === 'object') {
    const list = Array.isArray(items) ? items : [items];
    w.message(23, (i) => {
      for (const item of list) i.message(1, (inner) => schema(inner, item as Json));
    });
  }
  for (const member of Array.isArray(s['allOf']) ? s['allOf'] : []) w.message(24, (inner) => schema(inner, member as Json));
  if (s['properties']) w.message(25, (p) => namedSchemas(p, s['properties']));
  w.string(26, text(s['discriminator'])).bool(27, bool(s['readOnly']));
  if ('example' in s) w.message(30, (a) => any(a, s['example']));
  vendorExtensions(w, 31, s);
}

/** namedSchemas writes repeated NamedSchema {1 name, 2 Schema} at field 1 (Definitions, Properties). */
function namedSchemas(w: ProtobufWriter, record: unknown): void {
  for (const [name, value] of entries(record)) w.message(1, (e) => e.string(1, name).message(2, (inner) => schema(inner, value as Json)));
}

/** parameter writes a ParametersItem: a body parameter, or a query/path one (NonBodyParameter). */
function parameter(w: ProtobufWriter, p: Json): void {
  w.message(1, (param) => {
    if (p['in'] === 'body') {
      param.message(1, (body) =>
        body
          .string(1, text(p['description']))
          .string(2, text(p['name']))
          .string(3, 'body')
          .bool(4, bool(p['required']))
          .message(5, (inner) => schema(inner, p['schema'] as Json)),
      );
      return;
    }
    // QueryParameterSubSchema (3) numbers its fields one later than PathParameterSubSchema (4)
    // from `type` on, for the allowEmptyValue field path parameters lack.
    const isQuery = p['in'] === 'query';
    param.message(2, (nonBody) =>
      nonBody.message(isQuery ? 3 : 4, (sub) => {
        const shift = isQuery ? 1 : 0;
        sub
          .bool(1, bool(p['required']))
          .string(2, text(p['in']))
          .string(3, text(p['description']))
          .string(4, text(p['name']))
          .string(5 + shift, text(p['type']))
          .string(6 + shift, text(p['format']))
          .bool(19 + shift, bool(p['uniqueItems']));
      }),
    );
  });
}

/** operation writes an openapi.v2.Operation. */
function operation(w: ProtobufWriter, op: Json): void {
  w.strings(1, strings(op['tags']))
    .string(2, text(op['summary']))
    .string(3, text(op['description']))
    .string(5, text(op['operationId']))
    .strings(6, strings(op['produces']))
    .strings(7, strings(op['consumes']));
  for (const p of Array.isArray(op['parameters']) ? op['parameters'] : []) w.message(8, (item) => parameter(item, p as Json));
  w.message(9, (responses) => {
    for (const [code, response] of entries(op['responses'])) {
      const r = response as Json;
      responses.message(1, (named) =>
        named.string(1, code).message(2, (value) =>
          value.message(1, (res) => {
            res.string(1, text(r['description']));
            if (r['schema']) res.message(2, (item) => item.message(1, (inner) => schema(inner, r['schema'] as Json)));
          }),
        ),
      );
    }
  });
  w.strings(10, strings(op['schemes'])).bool(11, bool(op['deprecated']));
  vendorExtensions(w, 13, op);
}

const METHOD_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

/** pathItem writes an openapi.v2.PathItem. */
function pathItem(w: ProtobufWriter, item: Json): void {
  for (const [method, field] of Object.entries(METHOD_FIELDS)) {
    const op = item[method];
    if (op) w.message(field, (inner) => operation(inner, op as Json));
  }
  for (const p of Array.isArray(item['parameters']) ? item['parameters'] : []) w.message(9, (inner) => parameter(inner, p as Json));
  vendorExtensions(w, 10, item);
}

/** encodeOpenApiV2 returns the openapi.v2.Document bytes of a Swagger 2.0 document. */
export function encodeOpenApiV2(doc: Json): Buffer {
  const w = new ProtobufWriter();
  const info = (doc['info'] ?? {}) as Json;
  w.string(1, text(doc['swagger'])).message(2, (i) => i.string(1, text(info['title'])).string(2, text(info['version'])));
  w.message(8, (paths) => {
    for (const [path, item] of entries(doc['paths'])) paths.message(2, (named) => named.string(1, path).message(2, (inner) => pathItem(inner, item as Json)));
  });
  w.message(9, (definitions) => namedSchemas(definitions, doc['definitions']));
  vendorExtensions(w, 16, doc);
  return w.finish();
}
