/**
 * FieldType: the server-side apply view of a kind's JSON schema (the role
 * structured-merge-diff's schema.Schema plays, built from the same `x-kubernetes-*`
 * extensions kube-apiserver reads from its OpenAPI):
 *
 * - an object with declared properties is a struct; `x-kubernetes-map-type: atomic` makes
 *   it one leaf (LabelSelector, OwnerReference, ...);
 * - an object with only `additionalProperties` is a map (labels, data, resources.limits);
 * - a list is `atomic` (one leaf) unless `x-kubernetes-list-type` says `set` or `map`, or,
 *   without a list type, `x-kubernetes-patch-strategy: merge` says so (with its merge key
 *   as the only map key) — kube-openapi's rule;
 * - anything else known is a scalar; a node with no schema (or below
 *   `x-kubernetes-preserve-unknown-fields`) is untyped: maps are walked, lists are atomic.
 */
import { deref, resolveSchema, type SchemaDocument, type SchemaNode } from '../api/schema-node.js';
import type { JsonScalar } from './path-element.js';

/** Shape is how a walker treats a value of a FieldType. */
export type Shape = 'scalar' | 'struct' | 'map' | 'list' | 'untyped';

/** ListType is the element relationship of a list. */
export type ListType = 'atomic' | 'set' | 'map';

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

interface Extensions {
  listType?: string;
  listMapKeys?: readonly string[];
  patchStrategy?: string;
  mergeKey?: string;
  mapType?: string;
}

/** FieldType answers what a walker needs at one position of an object. Instances are
 * cached per schema node and immutable. */
export class FieldType {
  private readonly children = new Map<string, FieldType>();
  private itemType: FieldType | undefined;

  private constructor(
    private readonly node: SchemaNode | undefined,
    private readonly doc: SchemaDocument,
    private readonly ext: Extensions,
  ) {}

  /** of returns the type of a value whose schema node (as written at its use site) is `raw`. */
  static of(raw: SchemaNode | undefined, doc: SchemaDocument): FieldType {
    if (!raw) return new FieldType(undefined, doc, {});
    let byDoc = cache.get(doc);
    if (!byDoc) cache.set(doc, (byDoc = new WeakMap()));
    let type = byDoc.get(raw);
    if (!type) byDoc.set(raw, (type = FieldType.resolve(raw, doc)));
    return type;
  }

  /** resolve follows `$ref`s, lone `allOf`s and nullable wrappers to a concrete node,
   * collecting the extensions on the way (the use site wins over the definition). */
  private static resolve(raw: SchemaNode, doc: SchemaDocument): FieldType {
    const ext: Extensions = {};
    const node = resolveSchema(raw, doc, { nullable: true, visit: (on) => collect(ext, on) });
    return new FieldType(node, doc, ext);
  }

  /** root is the type of a whole object of the kind described by `doc`. */
  static root(doc: SchemaDocument): FieldType {
    return FieldType.of(doc.root, doc);
  }

  get shape(): Shape {
    const node = this.node;
    if (!node || (node['x-kubernetes-preserve-unknown-fields'] === true && !node.properties)) return 'untyped';
    if (node.properties) return 'struct';
    if (typeof node.additionalProperties === 'object') return 'map';
    if (node.type === 'array' || node.items) return 'list';
    if (typeof node.type === 'string' && SCALAR_TYPES.has(node.type)) return 'scalar';
    if (node['x-kubernetes-int-or-string'] === true || node.enum) return 'scalar';
    const branches = node.anyOf ?? node.oneOf;
    if (branches?.every((b) => typeof b.type === 'string' && SCALAR_TYPES.has(b.type))) return 'scalar';
    return 'untyped';
  }

  /** isAtomic: a struct or map with `x-kubernetes-map-type: atomic`, or an atomic list. */
  get isAtomic(): boolean {
    if (this.shape === 'list') return this.listType === 'atomic';
    return this.ext.mapType === 'atomic';
  }

  get listType(): ListType {
    const { listType, patchStrategy } = this.ext;
    if (listType === 'set' || listType === 'map') return listType;
    if (listType === undefined && patchStrategy?.split(',').includes('merge')) return this.ext.mergeKey ? 'map' : 'set';
    return 'atomic';
  }

  /** listKeys are the key fields of an associative (`map`) list. */
  get listKeys(): readonly string[] {
    return this.ext.listMapKeys ?? (this.ext.mergeKey ? [this.ext.mergeKey] : []);
  }

  /** isDeclaredField: `name` is a declared property of this struct. */
  isDeclaredField(name: string): boolean {
    return this.node?.properties?.[name] !== undefined;
  }

  /** field is the type of member `name`: a declared property, a map's value type, or untyped. */
  field(name: string): FieldType {
    let child = this.children.get(name);
    if (!child) {
      const node = this.node;
      const raw = node?.properties?.[name] ?? (typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined);
      this.children.set(name, (child = FieldType.of(raw, this.doc)));
    }
    return child;
  }

  /** item is the type of a list's elements. */
  item(): FieldType {
    return (this.itemType ??= FieldType.of(this.node?.items, this.doc));
  }

  /** keyDefault is the schema default of key field `name` of this list's items
   * (ports' `protocol: TCP`), used when an item omits it. */
  keyDefault(name: string): JsonScalar | undefined {
    const itemNode = deref(this.node?.items, this.doc);
    const field = deref(itemNode?.properties?.[name], this.doc);
    const value = field?.default;
    return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? (value as JsonScalar) : undefined;
  }
}

const cache = new WeakMap<SchemaDocument, WeakMap<SchemaNode, FieldType>>();

function collect(ext: Extensions, node: SchemaNode): void {
  ext.listType ??= stringExt(node, 'x-kubernetes-list-type');
  ext.patchStrategy ??= stringExt(node, 'x-kubernetes-patch-strategy');
  ext.mergeKey ??= stringExt(node, 'x-kubernetes-patch-merge-key');
  ext.mapType ??= stringExt(node, 'x-kubernetes-map-type');
  const keys = node['x-kubernetes-list-map-keys'];
  if (ext.listMapKeys === undefined && Array.isArray(keys)) ext.listMapKeys = keys.filter((k): k is string => typeof k === 'string');
}

function stringExt(node: SchemaNode, name: string): string | undefined {
  const value = node[name];
  return typeof value === 'string' ? value : undefined;
}
