/**
 * fast-check arbitraries for hostile requests: JSON shaped by a kind's own schema and then
 * broken (wrong types, out-of-range numbers, enormous or exotic strings, unknown fields with
 * exotic names, deep nesting), patches of every type, and hostile paths, query parameters,
 * headers and content types.
 */
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import type { ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import { deref, itemSchema, type SchemaDocument, type SchemaNode, schemaDocumentFor } from '../../apiserver/api/schema-node.js';

/** Strings a server must survive: empty, huge, control characters, past U+00FF, surrogates,
 * percent-escapes and path syntax, numbers and selectors in disguise. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '€',
    '\u0000',
    '\ud800',
    '../..',
    '%zz',
    '%2F',
    'a/b',
    '9223372036854775808',
    '-1',
    '1e308',
    'NaN',
    'null',
    '{}',
    '[]',
    '\\',
    '"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal `${x}` is the hostile value
    '${x}',
    'a=b,c!=d',
    '\n',
    'x'.repeat(300),
  ),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'y'.repeat(n)),
);

/** Numbers at and past the edges of Go's int32/int64 and JavaScript's safe integers. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, -(2 ** 63), 1e308, -1e308, 5e-324, 0.5),
);

/** Any JSON value, nested up to `depth`, with hostile leaves and keys. */
export function hostileJson(depth = 4): fc.Arbitrary<unknown> {
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: depth },
      hostileString,
      hostileNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
    ),
  }));
  return value;
}

/** A value shaped by `node` (a JSON-schema node of the kind), broken now and then. */
function shaped(node: SchemaNode | undefined, doc: SchemaDocument, depth: number): fc.Arbitrary<unknown> {
  const concrete = deref(node, doc);
  const broken = hostileJson(2);
  if (!concrete || depth > 6) return broken;
  const type = Array.isArray(concrete.type) ? concrete.type[0] : concrete.type;
  let good: fc.Arbitrary<unknown>;
  if (concrete.enum) good = fc.constantFrom(...concrete.enum);
  else if (type === 'object' && concrete.properties) {
    const entries = Object.entries(concrete.properties);
    good = fc
      .record(Object.fromEntries(entries.map(([key, child]) => [key, shaped(child, doc, depth + 1)])), { requiredKeys: [] })
      .chain((object) => fc.dictionary(hostileString, hostileJson(2), { maxKeys: 1 }).map((unknown) => ({ ...object, ...unknown })));
  } else if (type === 'object') good = fc.dictionary(hostileString, hostileString, { maxKeys: 3 });
  else if (type === 'array') good = fc.array(shaped(itemSchema(concrete, doc), doc, depth + 1), { maxLength: 3 });
  else if (type === 'integer' || type === 'number') good = hostileNumber;
  else if (type === 'boolean') good = fc.boolean();
  else good = hostileString;
  return fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: broken });
}

/** An object body for `def`: its kind's shape with a plausible name, broken in places. */
export function objectBody(def: ResourceDefinition): fc.Arbitrary<Record<string, unknown>> {
  const doc = schemaDocumentFor(def);
  const apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
  return fc.tuple(shaped(doc.root, doc, 0), fc.oneof(fc.constantFrom('fuzz', 'fuzz-a', 'fuzz-b'), hostileString)).map(([value, name]) => {
    const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { spec: value };
    const metadata = object['metadata'] !== null && typeof object['metadata'] === 'object' ? object['metadata'] : {};
    return { ...object, apiVersion, kind: def.kind, metadata: { ...(metadata as object), name } };
  });
}

/** How a body travels: its Content-Type and its bytes. */
export interface EncodedBody {
  contentType: string | undefined;
  body: string;
}

const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

/** encodedObject is an object body as JSON, YAML, or in a Content-Type that does not fit. */
export function encodedObject(def: ResourceDefinition): fc.Arbitrary<EncodedBody> {
  return fc.tuple(objectBody(def), fc.constantFrom('json', 'yaml', 'mismatch', 'garbage')).chain(([object, how]) => {
    if (how === 'json') return fc.constant({ contentType: 'application/json', body: JSON.stringify(object) });
    if (how === 'yaml') return fc.constant({ contentType: 'application/yaml', body: toYaml(object) });
    if (how === 'garbage') return fc.tuple(contentType, hostileString).map(([type, body]) => ({ contentType: type, body }));
    return contentType.map((type) => ({ contentType: type, body: JSON.stringify(object) }));
  });
}

/** encodedPatch is a patch of any type: well-formed for its type, or not. */
export function encodedPatch(def: ResourceDefinition): fc.Arbitrary<EncodedBody> {
  const jsonPatch = fc.array(
    fc.record(
      {
        op: fc.oneof(fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'), hostileString),
        path: fc.oneof(fc.constantFrom('', '/', '/spec', '/metadata/labels/a', '/data/k', '/spec/replicas', '/-'), hostileString),
        from: fc.constantFrom('/metadata', '/spec', ''),
        value: hostileJson(3),
      },
      { requiredKeys: ['op', 'path'] },
    ),
    { maxLength: 4 },
  );
  return fc.oneof(
    fc.tuple(fc.constantFrom(...PATCH_TYPES), objectBody(def)).map(([type, object]) => ({ contentType: type, body: JSON.stringify(object) })),
    jsonPatch.map((ops) => ({ contentType: PATCH_TYPES[0], body: JSON.stringify(ops) })),
    fc.tuple(fc.constantFrom(...PATCH_TYPES), hostileJson(4)).map(([type, value]) => ({ contentType: type, body: JSON.stringify(value) ?? 'null' })),
    fc.tuple(contentType, hostileString).map(([type, body]) => ({ contentType: type, body })),
  );
}

/** Content-Types: the served ones, near misses, and what a browser sends. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(
    undefined,
    '',
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/yaml',
    'application/vnd.kubernetes.protobuf',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
    ';;;',
    'application/json; charset=\u00e9',
  ),
  hostileString.filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
);

/** Query parameters the server reads, with hostile values (never `watch`: a fuzz case must end). */
export const hostileQuery: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'limit',
    'continue',
    'resourceVersion',
    'resourceVersionMatch',
    'labelSelector',
    'fieldSelector',
    'timeoutSeconds',
    'dryRun',
    'fieldManager',
    'fieldValidation',
    'force',
    'propagationPolicy',
    'gracePeriodSeconds',
    'orphanDependents',
    'pretty',
    'allowWatchBookmarks',
    'sendInitialEvents',
    'includeObject',
    'zzz',
  ),
  fc.oneof(
    hostileString,
    hostileNumber.map(String),
    fc.constantFrom(
      'All',
      'true',
      'Strict',
      'Foreground',
      'NotOlderThan',
      'Exact',
      '99999999999999999999',
      '-1',
      'a in (b',
      'metadata.name=x',
      'spec.nodeName!=',
    ),
  ),
  { maxKeys: 4 },
);

/** queryString renders parameters (values encoded; the names are known-safe). */
export function queryString(query: Record<string, string>): string {
  const parts = Object.entries(query).map(([key, value]) => `${key}=${encodeURIComponent(Buffer.from(value).toString())}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A path segment a client might send for a name: valid, or not. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('fuzz', 'fuzz-a', '..', '.', '%2e%2e', '%zz', '%', '%E0%A4%A', 'a%00b', 'x'.repeat(300), '%E2%82%AC'),
  hostileString.map((s) => encodeURIComponent(Buffer.from(s).toString())),
);

/** Headers a client (or a page) may add. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'Accept',
    'Accept-Encoding',
    'Content-Encoding',
    'Expect',
    'Impersonate-User',
    'X-Remote-User',
    'If-Match',
    'Range',
    'Origin',
    'Sec-Fetch-Site',
  ),
  fc.oneof(
    fc.constantFrom(
      'application/json;as=Table;v=v1;g=meta.k8s.io',
      'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
      'application/vnd.kubernetes.protobuf',
      'application/yaml',
      '*/*',
      'text/html',
      'gzip',
      'deflate',
      '100-continue',
      'garbage',
      'http://evil.example',
      'cross-site',
      'null',
    ),
    hostileString.filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
  ),
  { maxKeys: 3 },
);
