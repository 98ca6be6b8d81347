import { configMapDefinition } from './config-map.js';
import { eventDefinition } from './event.js';
import { namespaceDefinition } from './namespace.js';
import { nodeDefinition } from './node.js';
import { podDefinition } from './pod.js';
import { secretDefinition } from './secret.js';
import { serviceAccountDefinition } from './service-account.js';
import { serviceDefinition } from './service.js';
export * from './affinity.js';
export * from './binding.js';
export * from './config-map.js';
export * from './container.js';
export * from './event.js';
export * from './event-printing.js';
export * from './namespace.js';
export * from './node.js';
export * from './object-reference.js';
export * from './pod.js';
export * from './pod-defaults.js';
export * from './pod-printing.js';
export * from './pod-qos.js';
export * from './pod-spec.js';
export { allContainers, defaultImagePullPolicy } from './pod-spec-defaults.js';
export * from './pod-status.js';
export * from './probe.js';
export * from './quantity.js';
export * from './secret.js';
export * from './service.js';
export * from './service-account.js';
export * from './service-printing.js';
export * from './volume.js';
/** coreDefinitions lists the core/v1 kinds in registration (and discovery) order. */
// `any`: the list holds many kinds, each typed by its own definition.
export const coreDefinitions = [
    namespaceDefinition,
    podDefinition,
    nodeDefinition,
    eventDefinition,
    configMapDefinition,
    secretDefinition,
    serviceDefinition,
    serviceAccountDefinition,
];
//# sourceMappingURL=index.js.map