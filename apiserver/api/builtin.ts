/** builtinDefinitions lists every built-in kind, groups in discovery order (core first),
 * each group's versions in preference order. */
import { admissionregistrationDefinitions } from './admissionregistration/index.js';
import { apiextensionsDefinitions } from './apiextensions/index.js';
import { apiregistrationDefinitions } from './apiregistration/index.js';
import { appsDefinitions } from './apps/index.js';
import { authenticationDefinitions } from './authentication/index.js';
import { authorizationDefinitions } from './authorization/index.js';
import { autoscalingDefinitions } from './autoscaling/index.js';
import { batchDefinitions } from './batch/index.js';
import { certificatesDefinitions } from './certificates/index.js';
import { coordinationDefinitions } from './coordination/index.js';
import { coreDefinitions } from './core/index.js';
import { discoveryDefinitions } from './discovery/index.js';
import { eventsDefinitions } from './events/index.js';
import { flowcontrolDefinitions } from './flowcontrol/index.js';
import { metricsDefinitions } from './metrics/index.js';
import { networkingDefinitions } from './networking/index.js';
import { nodeDefinitions } from './node/index.js';
import { policyDefinitions } from './policy/index.js';
import { rbacDefinitions } from './rbac/index.js';
import type { AnyResourceDefinition } from './resource-definition.js';
import { schedulingDefinitions } from './scheduling/index.js';
import { storageDefinitions } from './storage/index.js';

export function builtinDefinitions(): AnyResourceDefinition[] {
  return [
    ...coreDefinitions,
    ...appsDefinitions,
    ...authenticationDefinitions,
    ...authorizationDefinitions,
    ...autoscalingDefinitions,
    ...batchDefinitions,
    ...certificatesDefinitions,
    ...coordinationDefinitions,
    ...discoveryDefinitions,
    ...eventsDefinitions,
    ...metricsDefinitions,
    ...networkingDefinitions,
    ...nodeDefinitions,
    ...policyDefinitions,
    ...schedulingDefinitions,
    ...storageDefinitions,
    ...rbacDefinitions,
    ...admissionregistrationDefinitions,
    ...flowcontrolDefinitions,
    ...apiextensionsDefinitions,
    ...apiregistrationDefinitions,
  ];
}
