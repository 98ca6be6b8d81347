/**
 * Patch strategy declarations, attached to zod schemas with `.meta()` so that one source
 * (the schema) feeds strategic merge patch, server-side apply and the OpenAPI documents
 * (which carry them as the same `x-kubernetes-*` extensions Kubernetes publishes).
 *
 * Kubernetes declares these with struct tags (`patchStrategy:"merge" patchMergeKey:"name"`);
 * the JSON-schema spelling is what `kubectl apply` reads from OpenAPI v3.
 */

/** A list of objects merged by the value of `key` (containers by name, ports by containerPort). */
export function mergeByKey(key: string) {
  return {
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-patch-merge-key': key,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [key],
  } as const;
}

/** A list of scalars merged as a set (finalizers). */
export const mergeScalars = {
  'x-kubernetes-patch-strategy': 'merge',
  'x-kubernetes-list-type': 'set',
} as const;

/** A map or struct whose patch may carry `$retainKeys` (e.g. Deployment.spec.strategy,
 * volume sources): keys not listed are cleared. */
export const retainKeys = { 'x-kubernetes-patch-strategy': 'retainKeys' } as const;

/** A list merged by key in a strategic merge patch that server-side apply nevertheless
 * treats as one atomic value (Kubernetes' `patchStrategy:"merge"` with `+listType=atomic`,
 * e.g. PodStatus.hostIPs). */
export function mergeByKeyAtomic(key: string) {
  return { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': key, 'x-kubernetes-list-type': 'atomic' } as const;
}

/** A struct server-side apply owns as a whole (`+structType=atomic`: LabelSelector,
 * OwnerReference, ObjectReference, the key selectors of env vars, node selectors): applying
 * one replaces it entirely, and its owner owns it as one field. */
export const atomicStruct = { 'x-kubernetes-map-type': 'atomic' } as const;

/** The default of a field that identifies list items (ports' `protocol`), published as the
 * OpenAPI `default` so server-side apply can key an item that omits it, as Kubernetes does. */
export function keyDefault(value: string) {
  return { default: value } as const;
}

/** A list of objects merged by key whose patch may also carry `$retainKeys` in its items. */
export function mergeByKeyRetainKeys(key: string) {
  return { ...mergeByKey(key), 'x-kubernetes-patch-strategy': 'merge,retainKeys' } as const;
}
