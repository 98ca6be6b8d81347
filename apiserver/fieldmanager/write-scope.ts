/**
 * WriteScope: which fields of an object a write may own. Two rules from kube-apiserver:
 *
 * - type and server metadata are never owned (the stripMeta set: apiVersion, kind, the
 *   `metadata` struct itself, name, namespace, uid, resourceVersion, generation,
 *   creationTimestamp, selfLink, managedFields);
 * - a write owns only what its endpoint may change (the strategies' reset fields): the main
 *   resource everything but `status` (when the kind has a /status subresource), /status only
 *   `status`, /scale only the replicas field, /finalize only `spec.finalizers`.
 */
import type { ResourceDefinition } from '../api/resource-definition.js';
import type { Comparison } from './compare.js';
import { FieldSet } from './field-set.js';
import type { Path } from './path-element.js';

/** WriteSubresource names the endpoint of a write: '' for the main resource. */
export type WriteSubresource = '' | 'status' | 'scale' | 'finalize';

const STRIPPED: readonly string[][] = [
  ['apiVersion'],
  ['kind'],
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'creationTimestamp'],
  ['metadata', 'selfLink'],
  ['metadata', 'uid'],
  ['metadata', 'generation'],
  ['metadata', 'resourceVersion'],
];
const MANAGED_FIELDS = ['metadata', 'managedFields'];

/** WriteScope filters field sets down to what one kind of write may own. */
export class WriteScope {
  private constructor(
    private readonly only: readonly string[] | undefined,
    private readonly excluded: readonly string[] | undefined,
  ) {}

  /** of returns the scope of writes to `subresource` of `def`'s objects. */
  static of(def: ResourceDefinition, subresource: WriteSubresource): WriteScope {
    switch (subresource) {
      case '':
        return new WriteScope(undefined, def.subresources.status ? ['status'] : undefined);
      case 'status':
        return new WriteScope(['status'], undefined);
      case 'scale':
        return new WriteScope((def.subresources.scale?.specReplicasPath ?? 'spec.replicas').split('.'), undefined);
      case 'finalize':
        return new WriteScope(['spec', 'finalizers'], undefined);
      default: {
        const unreachable: never = subresource;
        throw new Error(`unknown subresource ${String(unreachable)}`);
      }
    }
  }

  /** project cuts an object down to the part this scope may own (a cheap first cut before
   * comparing: /status writes compare only `status`). Shares structure with `object`. */
  project(object: Record<string, unknown>): Record<string, unknown> {
    if (this.only) {
      const value = this.only.reduce<unknown>((node, name) => (isMap(node) ? node[name] : undefined), object);
      return value === undefined ? {} : nest(this.only, value);
    }
    if (this.excluded?.length !== 1) return object;
    const { [this.excluded[0]!]: _dropped, ...rest } = object;
    return rest;
  }

  /** filter keeps the paths of `set` this scope may own. */
  filter(set: FieldSet): FieldSet {
    const all = set.paths();
    const kept = all.filter((path) => this.allows(path));
    return kept.length === all.length ? set : FieldSet.of(...kept);
  }

  /** filterComparison filters each part of a comparison. */
  filterComparison(comparison: Comparison): Comparison {
    return { added: this.filter(comparison.added), modified: this.filter(comparison.modified), removed: this.filter(comparison.removed) };
  }

  private allows(path: Path): boolean {
    if (STRIPPED.some((stripped) => sameFields(path, stripped))) return false;
    if (startsWith(path, MANAGED_FIELDS)) return false;
    if (this.only && !startsWith(path, this.only)) return false;
    return !(this.excluded && startsWith(path, this.excluded));
  }
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nest(names: readonly string[], value: unknown): Record<string, unknown> {
  return names.reduceRight<unknown>((inner, name) => ({ [name]: inner }), value) as Record<string, unknown>;
}

function sameFields(path: Path, names: readonly string[]): boolean {
  return path.length === names.length && startsWith(path, names);
}

function startsWith(path: Path, names: readonly string[]): boolean {
  if (path.length < names.length) return false;
  return names.every((name, i) => {
    const element = path[i];
    return element?.kind === 'field' && element.name === name;
  });
}
