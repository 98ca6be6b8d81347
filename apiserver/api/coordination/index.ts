/**
 * coordination.k8s.io: Leases, the locks behind leader election and node heartbeats.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ (meta, printing,
 * validation, resource-definition) and zod. See docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { leaseDefinition } from './lease.js';

export { type Lease, LeaseSchema, LeaseSpecSchema, LeaseStrategies, leaseDefinition, validateLease } from './lease.js';

/** coordinationDefinitions lists the group's served kinds, preferred version first. */
export const coordinationDefinitions: AnyResourceDefinition[] = [leaseDefinition];
