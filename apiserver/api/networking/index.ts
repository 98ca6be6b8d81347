/**
 * networking.k8s.io: Ingresses, IngressClasses and NetworkPolicies.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { ingressDefinition } from './ingress.js';
import { ingressClassDefinition } from './ingress-class.js';
import { networkPolicyDefinition } from './network-policy.js';

export { type Ingress, IngressSchema, ingressDefinition, validateIngress } from './ingress.js';
export { type IngressClass, IngressClassSchema, ingressClassDefinition } from './ingress-class.js';
export { type NetworkPolicy, NetworkPolicySchema, networkPolicyDefinition } from './network-policy.js';

/** networkingDefinitions lists the group's served kinds (kube-apiserver's discovery order). */
export const networkingDefinitions: AnyResourceDefinition[] = [ingressClassDefinition, ingressDefinition, networkPolicyDefinition];
