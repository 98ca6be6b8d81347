/**
 * Where the etcd store keeps things (docs/architecture.md, "The etcd store"):
 *
 *   <prefix>/<resource>/<namespace>/<name>   a namespaced object, as kube-apiserver lays it out
 *   <prefix>/<resource>/<name>               a cluster-scoped object
 *   <prefix>/_kubesim/origin                 written once: its revision is resourceVersion 0
 *   <prefix>/_kubesim/change                 rewritten by every change, in the change's txn:
 *                                            {actor, timeMs}, so its version at revision R is
 *                                            the record of the change R
 *
 * `<resource>` is the storage key as it is (`pods`, `deployments.apps`, `widgets.example.com`):
 * one path segment, so a key parses back to its ref without knowing any kind, and two groups
 * with the same plural never share a key. `_kubesim` cannot be a storage key (no `_` in DNS
 * names). Names and namespaces never contain `/`.
 */
import type { ObjectRef } from '../types.js';

/** KeyRange is etcd's [key, range_end) as strings. */
export interface KeyRange {
  key: string;
  rangeEnd: string;
}

export class EtcdKeys {
  /** Every key of the store starts with this: `<prefix>/`. */
  readonly root: string;
  readonly origin: string;
  readonly change: string;
  private readonly recordsDir: string;

  constructor(prefix: string) {
    if (prefix === '' || prefix.endsWith('/')) throw new RangeError(`etcd prefix must be non-empty without a trailing /, got "${prefix}"`);
    this.root = `${prefix}/`;
    this.recordsDir = `${this.root}_kubesim/`;
    this.origin = `${this.recordsDir}origin`;
    this.change = `${this.recordsDir}change`;
  }

  object(ref: ObjectRef): string {
    return ref.namespace === '' ? `${this.root}${ref.resource}/${ref.name}` : `${this.root}${ref.resource}/${ref.namespace}/${ref.name}`;
  }

  /** The keys of a resource, or of one namespace of it ('' still scans the whole resource:
   * cluster-scoped keys are not contiguous; see isInNamespace). */
  resource(resource: string, namespace?: string): KeyRange {
    return prefixRange(namespace === undefined || namespace === '' ? `${this.root}${resource}/` : `${this.root}${resource}/${namespace}/`);
  }

  /** Every key of the store. */
  all(): KeyRange {
    return prefixRange(this.root);
  }

  /** parse maps an object key back to its ref; undefined for kubesim's own records and
   * keys outside the store. */
  parse(key: string): ObjectRef | undefined {
    if (!key.startsWith(this.root) || key.startsWith(this.recordsDir)) return undefined;
    const parts = key.slice(this.root.length).split('/');
    if (parts.length === 2) return { resource: parts[0]!, namespace: '', name: parts[1]! };
    if (parts.length === 3) return { resource: parts[0]!, namespace: parts[1]!, name: parts[2]! };
    return undefined;
  }
}

/** prefixRange is etcd's range of every key starting with `prefix`. */
export function prefixRange(prefix: string): KeyRange {
  const bytes = Buffer.from(prefix);
  const end = Buffer.from(bytes);
  // The keys here are ASCII, so the last byte is below 0xff and can simply be incremented.
  end[end.length - 1]! += 1;
  return { key: prefix, rangeEnd: end.toString() };
}
