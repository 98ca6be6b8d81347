/**
 * KindStrategy holds the few places where a kind's lifecycle differs from the generic one,
 * as kube-apiserver's per-resource REST strategies do: Services allocate cluster IPs, Pods
 * are deleted gracefully, Namespaces terminate instead of vanishing.
 */
import type { KubeObject } from '../api/resource-definition.js';
import type { RegistryContext } from './context.js';

export interface DeleteRequest {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}

/** KindStrategy knows how one kind departs from the generic create/update/delete flow.
 * Hooks mutate the object they are given (a private copy) and may throw ApiError. */
export interface KindStrategy {
  /** After defaulting, before validation, on create (allocate cluster IPs, node ports). */
  beforeCreate?(object: KubeObject, ctx: RegistryContext): void;
  /** After defaulting, before validation, on update. */
  beforeUpdate?(object: KubeObject, old: KubeObject, ctx: RegistryContext): void;
  /** The grace period of a graceful deletion, or undefined to delete without grace. */
  gracePeriodSeconds?(object: KubeObject, request: DeleteRequest): number | undefined;
  /** Extra conditions for an object marked for deletion to be removed (Namespace: spec.finalizers empty). */
  canBeRemoved?(object: KubeObject): boolean;
  /** Called when an object is first marked for deletion (Namespace: phase Terminating). */
  onMarkedForDeletion?(object: KubeObject): void;
  /** DELETE answers with the deleted object instead of a Status (Pods, Namespaces). */
  returnDeletedObject?: boolean;
}
