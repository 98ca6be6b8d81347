/**
 * networking.k8s.io/v1 ServiceCIDR (served by default since Kubernetes 1.33): a range Service
 * cluster IPs are allocated from. The API server keeps one named `kubernetes` for its own
 * range (10.96.0.0/12) with condition Ready; ranges users add widen the IPs a Service may ask
 * for. `spec.cidrs` holds one CIDR per IP family and may only change from one family to two.
 */
import { z } from 'zod';
import { cidrErrors, cidrFamilyOf } from '../ip-text.js';
import { ConditionSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import { type FieldError, GoLiteral, type ResourceDefinition } from '../resource-definition.js';
import { invalid, required } from '../validation.js';
import { ServiceCIDRMessage } from './service-network-protobuf.js';

const NETWORKING_V1 = 'io.k8s.api.networking.v1';
const IMMUTABLE = 'field is immutable';

export const ServiceCIDRSchema = z
  .object({
    ...typeMetaFields('networking.k8s.io/v1', 'ServiceCIDR'),
    spec: z
      .object({
        cidrs: z
          .array(z.string())
          .optional()
          .meta({ 'x-kubernetes-list-type': 'atomic' })
          .describe('Ranges in CIDR form (10.96.0.0/12, 2001:db8::/64), at most one per IP family. Only a second family may be added.'),
      })
      .meta({ id: `${NETWORKING_V1}.ServiceCIDRSpec`, description: 'ServiceCIDRSpec lists the ranges cluster IPs are allocated from.' })
      .default(() => ({}))
      .describe('Desired state of the ServiceCIDR.'),
    status: z
      .object({
        conditions: z
          .array(ConditionSchema)
          .optional()
          .meta({ ...mergeByKey('type'), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
          .describe('Conditions of the ServiceCIDR; Ready says whether addresses are allocated from it.'),
      })
      .meta({ id: `${NETWORKING_V1}.ServiceCIDRStatus`, description: 'ServiceCIDRStatus is the observed state of a ServiceCIDR.' })
      .optional()
      .describe('Observed state of the ServiceCIDR.'),
  })
  .meta({
    id: `${NETWORKING_V1}.ServiceCIDR`,
    description: 'ServiceCIDR defines a range of IP addresses (CIDR form) that Service cluster IPs are allocated from.',
  });

export type ServiceCIDR = z.infer<typeof ServiceCIDRSchema>;

/** validateCidrs is validateServiceCIDRSpec: one or two valid CIDRs of different families. */
function validateCidrs(cidrs: string[]): FieldError[] {
  const field = 'spec.cidrs';
  if (cidrs.length === 0) return [{ ...required(field), detail: 'at least one CIDR required' }];
  if (cidrs.length > 2) {
    const spec = new GoLiteral(`networking.ServiceCIDRSpec{CIDRs:[]string{${cidrs.map((c) => JSON.stringify(c)).join(', ')}}}`);
    return [invalid(field, spec, 'may only hold up to 2 values')];
  }
  const errors = cidrs.flatMap((cidr, i) => cidrErrors(cidr).map((detail) => invalid(`${field}[${i}]`, cidr, detail)));
  const [first, second] = cidrs.map(cidrFamilyOf);
  if (cidrs.length === 2 && first !== undefined && first === second) {
    errors.push(invalid(field, cidrs, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
  }
  return errors;
}

/** validateCidrsUpdate is ValidateServiceCIDRUpdate: the CIDRs stay, except that a
 * single-family range may gain a range of the other family. */
function validateCidrsUpdate(cidrs: string[], old: string[]): FieldError[] {
  if (cidrs.length === old.length) {
    return old.flatMap((cidr, i) => (cidr === cidrs[i] ? [] : [invalid(`spec.cidrs[${i}]`, cidrs[i], IMMUTABLE)]));
  }
  if (old.length === 1 && cidrs.length === 2) {
    const errors = cidrs[0] === old[0] ? [] : [invalid('spec.cidrs[0]', cidrs[0], IMMUTABLE)];
    return [...errors, ...validateCidrs(cidrs)];
  }
  return [invalid('spec.cidrs', cidrs, IMMUTABLE)];
}

export function validateServiceCIDR(serviceCidr: ServiceCIDR, old?: ServiceCIDR): FieldError[] {
  const cidrs = serviceCidr.spec.cidrs ?? [];
  return old ? validateCidrsUpdate(cidrs, old.spec.cidrs ?? []) : validateCidrs(cidrs);
}

/** serviceCIDRDefinition serves networking.k8s.io/v1 servicecidrs (cluster-scoped, +status). */
export const serviceCIDRDefinition: ResourceDefinition<ServiceCIDR> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'ServiceCIDR',
  plural: 'servicecidrs',
  singular: 'servicecidr',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: ServiceCIDRSchema,
  validate: validateServiceCIDR,
  tracksGeneration: false,
  subresources: { status: true },
  // kube-apiserver's strategy keeps a status sent on create.
  keepStatusOnCreate: true,
  printColumns: [
    nameColumn,
    column('CIDRs', (serviceCidr: ServiceCIDR) => (serviceCidr.spec?.cidrs ?? []).join(','), { description: 'The ranges addresses are allocated from.' }),
    ageColumn,
  ],
  protobuf: ServiceCIDRMessage,
  storage: { resource: 'servicecidrs.networking.k8s.io' },
};
