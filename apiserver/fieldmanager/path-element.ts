/**
 * PathElement: one step of a field path, as server-side apply names fields.
 *
 * - `field`: a member of a struct or map (`f:replicas` in FieldsV1, `.replicas` in messages);
 * - `key`: the item of an associative list whose key fields have these values
 *   (`k:{"containerPort":80,"protocol":"TCP"}`, `[containerPort=80,protocol="TCP"]`);
 * - `value`: the item of a set-like list of scalars (`v:"foo"`, `[="foo"]`);
 * - `index`: a position in a list that has no identity of its own (`i:0`, `[0]`).
 *
 * Elements have a total order (fields, then keys, then values, then indexes) that FieldsV1
 * encoding follows, and a canonical serialization that doubles as a map key.
 */

/** JsonScalar is a key field's or set item's value. */
export type JsonScalar = string | number | boolean | null;

/** KeyFields are the key fields of an associative list item, sorted by name. */
export type KeyFields = ReadonlyArray<readonly [string, JsonScalar]>;

/** PathElement is one step of a field path (see the file comment). */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: KeyFields }
  | { readonly kind: 'value'; readonly value: JsonScalar }
  | { readonly kind: 'index'; readonly index: number };

/** Path is a sequence of elements from the object's root. */
export type Path = readonly PathElement[];

/** fieldElement selects member `name` of a struct or map. */
export function fieldElement(name: string): PathElement {
  return { kind: 'field', name };
}

/** keyElement builds a key element; its fields are sorted by name, as Kubernetes keeps them. */
export function keyElement(fields: Iterable<readonly [string, JsonScalar]>): PathElement {
  return { kind: 'key', fields: [...fields].sort(([a], [b]) => compareStrings(a, b)) };
}

/** valueElement selects the item `value` of a set-like list of scalars. */
export function valueElement(value: JsonScalar): PathElement {
  return { kind: 'value', value };
}

/** indexElement selects a list item by position (lists whose items have no identity). */
export function indexElement(index: number): PathElement {
  return { kind: 'index', index };
}

/** fieldPath builds a path of field elements: fieldPath('spec', 'replicas'). */
export function fieldPath(...names: string[]): Path {
  return names.map(fieldElement);
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** comparePathElements orders elements as structured-merge-diff does. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeyFields(a.fields, (b as typeof a).fields);
    case 'value':
      return compareScalars(a.value, (b as typeof a).value);
    case 'index':
      return a.index - (b as typeof a).index;
    default: {
      const unreachable: never = a;
      throw new Error(`unknown path element ${String(unreachable)}`);
    }
  }
}

function compareKeyFields(a: KeyFields, b: KeyFields): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [nameA, valueA] = a[i]!;
    const [nameB, valueB] = b[i]!;
    const byName = compareStrings(nameA, nameB);
    if (byName !== 0) return byName;
    const byValue = compareScalars(valueA, valueB);
    if (byValue !== 0) return byValue;
  }
  return a.length - b.length;
}

// Kubernetes' value order: numbers, then strings, then booleans, then null.
const SCALAR_RANK = { number: 0, string: 1, boolean: 2, object: 3 } as const;

function compareScalars(a: JsonScalar, b: JsonScalar): number {
  const rankA = SCALAR_RANK[typeof a as keyof typeof SCALAR_RANK];
  const rankB = SCALAR_RANK[typeof b as keyof typeof SCALAR_RANK];
  if (rankA !== rankB) return rankA - rankB;
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'number') return a - (b as number);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  return 0;
}

/** compareStrings compares by UTF-16 code units (byte order for the ASCII names in use). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Serialized key and value elements, by element: a path's elements are shared by every path
 * below it, so a trie insert would otherwise re-serialise each ancestor (JSON and escaping). */
const serializedElements = new WeakMap<PathElement, string>();

/** serializePathElement renders the FieldsV1 key of an element: `f:name`, `k:{...}`,
 * `v:...`, `i:0`. Values are JSON as Go's encoding/json writes them. */
export function serializePathElement(pe: PathElement): string {
  if (pe.kind === 'field') return `f:${pe.name}`;
  if (pe.kind === 'index') return `i:${pe.index}`;
  let serialized = serializedElements.get(pe);
  if (serialized === undefined) {
    serialized = serializeJsonElement(pe);
    serializedElements.set(pe, serialized);
  }
  return serialized;
}

function serializeJsonElement(pe: Extract<PathElement, { kind: 'key' | 'value' }>): string {
  if (pe.kind === 'value') return `v:${goJson(pe.value)}`;
  return `k:{${pe.fields.map(([name, value]) => `${goJson(name)}:${goJson(value)}`).join(',')}}`;
}

/** parsePathElement reads a FieldsV1 key; throws an Error naming the key when malformed. */
export function parsePathElement(text: string): PathElement {
  const body = text.slice(2);
  if (text[1] !== ':') throw new Error(`missing colon: ${text}`);
  switch (text[0]) {
    case 'f':
      return fieldElement(body);
    case 'k': {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`invalid key element: ${text}`);
      return keyElement(Object.entries(parsed).map(([name, value]) => [name, asScalar(value, text)] as const));
    }
    case 'v':
      return valueElement(asScalar(JSON.parse(body), text));
    case 'i': {
      if (!/^-?\d+$/.test(body)) throw new Error(`invalid index element: ${text}`);
      return indexElement(Number(body));
    }
    default:
      throw new Error(`unknown path element type: ${text}`);
  }
}

function asScalar(value: unknown, text: string): JsonScalar {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new Error(`unsupported value in path element: ${text}`);
}

/** pathToString renders a path as Kubernetes' conflict messages do:
 * `.spec.template.spec.containers[name="nginx"].image`. */
export function pathToString(path: Path): string {
  return path.map(elementToString).join('');
}

function elementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([name, value]) => `${name}=${scalarToString(value)}`).join(',')}]`;
    case 'value':
      return `[=${scalarToString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
    default: {
      const unreachable: never = pe;
      throw new Error(`unknown path element ${String(unreachable)}`);
    }
  }
}

/** scalarToString quotes strings (Go's %q) and prints other scalars as they are. */
function scalarToString(value: JsonScalar): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** goJson is JSON.stringify with Go's HTML-safe escaping of <, > and &, so keys match the
 * bytes kube-apiserver writes. */
function goJson(value: JsonScalar): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
