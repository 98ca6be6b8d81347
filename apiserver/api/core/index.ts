/**
 * core/v1 API types: one module per kind, plus the shared pod pieces (PodSpec, Container,
 * Volume, affinity) that workload kinds embed. `coreDefinitions` is the core group's part of
 * the registry. Imports only from apiserver/api/; see docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { componentStatusDefinition } from './component-status.js';
import { configMapDefinition } from './config-map.js';
import { endpointsDefinition } from './endpoints.js';
import { eventDefinition } from './event.js';
import { limitRangeDefinition } from './limit-range.js';
import { namespaceDefinition } from './namespace.js';
import { nodeDefinition } from './node.js';
import { persistentVolumeDefinition } from './persistent-volume.js';
import { persistentVolumeClaimDefinition } from './persistent-volume-claim.js';
import { podDefinition } from './pod.js';
import { podTemplateDefinition } from './pod-template.js';
import { replicationControllerDefinition } from './replication-controller.js';
import { resourceQuotaDefinition } from './resource-quota.js';
import { secretDefinition } from './secret.js';
import { serviceDefinition } from './service.js';
import { serviceAccountDefinition } from './service-account.js';

export * from './affinity.js';
export * from './binding.js';
export * from './component-status.js';
export * from './config-map.js';
export * from './container.js';
export * from './endpoints.js';
export * from './event.js';
export * from './limit-range.js';
export { applyLimitRangeDefaults, LIMIT_RANGER_ANNOTATION } from './limit-ranger.js';
export * from './namespace.js';
export * from './node.js';
export * from './object-reference.js';
export * from './persistent-volume.js';
export * from './persistent-volume-claim.js';
export * from './pod.js';
export * from './pod-defaults.js';
export * from './pod-qos.js';
export * from './pod-resources.js';
export * from './pod-spec.js';
export { allContainers, defaultImagePullPolicy, defaultPodSpec } from './pod-spec-defaults.js';
export { validatePodSpec, validatePodTemplateSpec } from './pod-spec-validation.js';
export * from './pod-status.js';
export * from './pod-template.js';
export * from './probe.js';
export * from './quantity.js';
export * from './replication-controller.js';
export * from './resource-quota.js';
export * from './secret.js';
export * from './service.js';
export * from './service-account.js';
export * from './volume.js';

/** coreDefinitions lists the core/v1 kinds in registration (and discovery) order. */
// `any`: the list holds many kinds, each typed by its own definition.
export const coreDefinitions: AnyResourceDefinition[] = [
  namespaceDefinition,
  podDefinition,
  nodeDefinition,
  eventDefinition,
  configMapDefinition,
  secretDefinition,
  serviceDefinition,
  endpointsDefinition,
  serviceAccountDefinition,
  persistentVolumeClaimDefinition,
  persistentVolumeDefinition,
  replicationControllerDefinition,
  podTemplateDefinition,
  limitRangeDefinition,
  resourceQuotaDefinition,
  componentStatusDefinition,
];
