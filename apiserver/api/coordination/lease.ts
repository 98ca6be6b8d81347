/**
 * coordination.k8s.io/v1 Lease: a lock held by one holder at a time and renewed while it
 * lives. Controllers use Leases for leader election (kube-controller-manager,
 * kube-scheduler) and kubelets for node heartbeats (kube-node-lease namespace). Holders
 * coordinate purely through optimistic concurrency on updates; the server adds no
 * semantics beyond validation.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { MicroTimeSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, isQualifiedName, notSupported } from '../validation.js';
import { LeaseMessage } from './lease-protobuf.js';

const COORDINATION_V1 = 'io.k8s.api.coordination.v1';

/** LeaseStrategies are the Kubernetes-defined coordinated leader election strategies;
 * other strategies must be domain-prefixed (`example.com/my-strategy`). */
export const LeaseStrategies = ['OldestEmulationVersion'] as const;

export const LeaseSpecSchema = z
  .object({
    holderIdentity: z.string().optional().describe('holderIdentity is the identity of the current holder of the lease.'),
    leaseDurationSeconds: z
      .int32()
      .optional()
      .describe('leaseDurationSeconds is how long candidates must wait after the last renewTime before they may take the lease.'),
    acquireTime: MicroTimeSchema.optional().describe('acquireTime is when the current holder acquired the lease.'),
    renewTime: MicroTimeSchema.optional().describe('renewTime is when the current holder last renewed the lease.'),
    leaseTransitions: z.int32().optional().describe('leaseTransitions is the number of times the lease has changed holders.'),
    strategy: z
      .string()
      .optional()
      .describe(
        'strategy is how the leader is picked in coordinated leader election (OldestEmulationVersion or a domain-prefixed custom name). Unset means no coordination.',
      ),
    preferredHolder: z.string().optional().describe('preferredHolder signals the holder that it should yield the lease to this identity; requires a strategy.'),
  })
  .meta({ id: `${COORDINATION_V1}.LeaseSpec`, description: 'LeaseSpec is the specification of a Lease.' });

export const LeaseSchema = z
  .object({
    ...typeMetaFields('coordination.k8s.io/v1', 'Lease'),
    spec: LeaseSpecSchema.optional().describe('spec contains the holder and timing of the lease.'),
  })
  .meta({ id: `${COORDINATION_V1}.Lease`, description: 'Lease defines a lease concept: a lock that one holder takes and renews.' });

export type Lease = z.infer<typeof LeaseSchema>;

/** validateLease checks a Lease's spec as Kubernetes' ValidateLeaseSpec does (pure). */
export function validateLease(lease: Lease): FieldError[] {
  const spec = lease.spec ?? {};
  const errors: FieldError[] = [];
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errors.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errors.push(invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (spec.strategy !== undefined) errors.push(...validateLeaseStrategy(spec.strategy, 'spec.strategy'));
  if (spec.preferredHolder && !spec.strategy) {
    errors.push(forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errors;
}

function validateLeaseStrategy(strategy: string, field: string): FieldError[] {
  if (!strategy.includes('/')) {
    return (LeaseStrategies as readonly string[]).includes(strategy) ? [] : [notSupported(field, strategy, LeaseStrategies)];
  }
  return isQualifiedName(strategy).map((detail) => invalid(field, strategy, detail));
}

/** leaseDefinition serves coordination.k8s.io/v1 leases. */
export const leaseDefinition: ResourceDefinition<Lease> = {
  ...KIND_IDS.lease,
  singular: 'lease',
  shortNames: [],
  categories: [],
  schema: LeaseSchema,
  validate: validateLease,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Holder', (lease: Lease) => lease.spec?.holderIdentity ?? '', {
      description: 'holderIdentity contains the identity of the holder of a current lease.',
    }),
    ageColumn,
  ],
  protobuf: LeaseMessage,
  storage: { resource: 'leases.coordination.k8s.io' },
};
