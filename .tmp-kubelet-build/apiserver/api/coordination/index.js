import { leaseDefinition } from './lease.js';
export { LeaseSchema, LeaseSpecSchema, LeaseStrategies, leaseDefinition, validateLease } from './lease.js';
/** coordinationDefinitions lists the group's served kinds, preferred version first. */
export const coordinationDefinitions = [leaseDefinition];
//# sourceMappingURL=index.js.map