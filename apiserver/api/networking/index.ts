/**
 * networking.k8s.io: Ingresses, IngressClasses, NetworkPolicies, and the Service IP ranges
 * (ServiceCIDRs) and allocations (IPAddresses).
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { ingressDefinition } from './ingress.js';
import { ingressClassDefinition } from './ingress-class.js';
import { ipAddressDefinition } from './ip-address.js';
import { networkPolicyDefinition } from './network-policy.js';
import { serviceCIDRDefinition } from './service-cidr.js';

export { type Ingress, IngressSchema, ingressDefinition, validateIngress } from './ingress.js';
export { type IngressClass, IngressClassSchema, ingressClassDefinition } from './ingress-class.js';
export {
  IP_ALLOCATOR_MANAGER,
  IP_FAMILY_LABEL,
  IP_MANAGED_BY_LABEL,
  type IPAddress,
  IPAddressSchema,
  ipAddressDefinition,
} from './ip-address.js';
export { type NetworkPolicy, NetworkPolicySchema, networkPolicyDefinition } from './network-policy.js';
export { type ServiceCIDR, ServiceCIDRSchema, serviceCIDRDefinition } from './service-cidr.js';

/** networkingDefinitions lists the group's served kinds (kube-apiserver's discovery order). */
export const networkingDefinitions: AnyResourceDefinition[] = [
  ingressClassDefinition,
  ingressDefinition,
  ipAddressDefinition,
  networkPolicyDefinition,
  serviceCIDRDefinition,
];
