/**
 * WriteScope: which fields of an object a write may own. Two rules from kube-apiserver:
 *
 * - type and server metadata are never owned (the stripMeta set: apiVersion, kind, the
 *   `metadata` struct itself, name, namespace, uid, resourceVersion, generation,
 *   creationTimestamp, selfLink, managedFields);
 * - a write owns only what its endpoint may change (the strategies' reset fields): the main
 *   resource everything but `status` (when the kind has a /status subresource), /status only
 *   `status`, /scale only the replicas field, /finalize only `spec.finalizers`, /approval
 *   (CertificateSigningRequests) only `status.conditions`, pods/ephemeralcontainers only
 *   `spec.ephemeralContainers`.
 */
import type { ResourceDefinition } from '../api/resource-definition.js';
import type { Comparison } from './compare.js';
import { FieldSet } from './field-set.js';
import { fieldPath } from './path-element.js';

/** WriteSubresource names the endpoint of a write: '' for the main resource. */
export type WriteSubresource = '' | 'status' | 'scale' | 'finalize' | 'approval' | 'ephemeralcontainers';

const STRIPPED = FieldSet.of(
  ...[
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
  ].map((names) => fieldPath(...names)),
);
const MANAGED_FIELDS = fieldPath('metadata', 'managedFields');

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
      case 'approval':
        return new WriteScope(['status', 'conditions'], undefined);
      case 'ephemeralcontainers':
        return new WriteScope(['spec', 'ephemeralContainers'], undefined);
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

  /** filter returns the paths of `set` this scope may own (a new set). */
  filter(set: FieldSet): FieldSet {
    const kept = set.difference(STRIPPED).removeAtOrBelow(MANAGED_FIELDS);
    if (this.only) kept.keepAtOrBelow(fieldPath(...this.only));
    if (this.excluded) kept.removeAtOrBelow(fieldPath(...this.excluded));
    return kept;
  }

  /** filterComparison filters each part of a comparison. */
  filterComparison(comparison: Comparison): Comparison {
    return { added: this.filter(comparison.added), modified: this.filter(comparison.modified), removed: this.filter(comparison.removed) };
  }
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nest(names: readonly string[], value: unknown): Record<string, unknown> {
  return names.reduceRight<unknown>((inner, name) => ({ [name]: inner }), value) as Record<string, unknown>;
}
