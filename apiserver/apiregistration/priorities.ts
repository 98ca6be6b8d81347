/**
 * The discovery priorities kube-apiserver gives the APIServices of its built-in group-versions
 * (groupPriorityMinimum, versionPriority), and the ones it gives CRD groups.
 */

export interface ApiServicePriority {
  group: number;
  version: number;
}

const BUILTIN: Record<string, ApiServicePriority> = {
  v1: { group: 18000, version: 1 },
  'apiregistration.k8s.io/v1': { group: 18000, version: 15 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'batch/v1': { group: 17400, version: 15 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'policy/v1': { group: 17100, version: 15 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
  // Served by metrics-server through aggregation on a real cluster, which registers it so.
  'metrics.k8s.io/v1beta1': { group: 100, version: 100 },
};

/** A CRD's group-versions, as kube-apiserver's CRD registration controller registers them. */
const CUSTOM: ApiServicePriority = { group: 1000, version: 100 };

/** apiServicePriority is the priority of a served group-version (`apps/v1`, `v1`). */
export function apiServicePriority(groupVersion: string): ApiServicePriority {
  return BUILTIN[groupVersion] ?? CUSTOM;
}
