/**
 * networking.k8s.io/v1 IPAddress (served by default since Kubernetes 1.33, MultiCIDRServiceAllocator
 * GA): one object per IP handed out from a ServiceCIDR, named by the IP in canonical form and
 * pointing at its holder (`spec.parentRef`, immutable). The API server's allocator writes one
 * for every Service cluster IP (labelled managed-by ipallocator.k8s.io); an IPAddress written by
 * anyone else reserves its IP, so the allocator will not hand it out.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, isDns1123Subdomain, isValidPathSegmentName, required, validateImmutableField } from '../validation.js';
import { IPAddressMessage } from './service-network-protobuf.js';

const NETWORKING_V1 = 'io.k8s.api.networking.v1';

/** Labels the allocator puts on the IPAddresses it manages (kube-apiserver's ipallocator). */
export const IP_FAMILY_LABEL = 'ipaddress.kubernetes.io/ip-family';
export const IP_MANAGED_BY_LABEL = 'ipaddress.kubernetes.io/managed-by';
export const IP_ALLOCATOR_MANAGER = 'ipallocator.k8s.io';

const ParentReferenceSchema = z
  .object({
    group: z.string().optional().describe('Group of the referent; empty for the core group (Services).'),
    resource: z.string().optional().describe('Resource of the referent, e.g. "services". Required.'),
    namespace: z.string().optional().describe('Namespace of the referent, for a namespaced resource.'),
    name: z.string().optional().describe('Name of the referent. Required.'),
  })
  .meta({ id: `${NETWORKING_V1}.ParentReference`, description: 'ParentReference names the object an IPAddress is allocated to.' });

export const IPAddressSchema = z
  .object({
    ...typeMetaFields('networking.k8s.io/v1', 'IPAddress'),
    spec: z
      .object({
        parentRef: ParentReferenceSchema.optional().describe('The object the address is allocated to. Required, immutable.'),
      })
      .meta({ id: `${NETWORKING_V1}.IPAddressSpec`, description: 'IPAddressSpec describes the allocation of an IPAddress.' })
      .default(() => ({}))
      .describe('Desired state of the IPAddress.'),
  })
  .meta({
    id: `${NETWORKING_V1}.IPAddress`,
    description:
      'IPAddress records one IP address allocated from a ServiceCIDR and the object holding it. Its name is the address in canonical form (192.168.1.5 or 2001:db8::1).',
  });

export type IPAddress = z.infer<typeof IPAddressSchema>;
type ParentReference = z.infer<typeof ParentReferenceSchema>;

function pathSegmentErrors(value: string | undefined, field: string, isRequired: boolean): FieldError[] {
  if (!value) return isRequired ? [required(field)] : [];
  return isValidPathSegmentName(value).map((detail) => invalid(field, value, detail));
}

/** validateParentRef checks the reference as kube-apiserver's validateIPAddressParentReference. */
function validateParentRef(ref: ParentReference | undefined): FieldError[] {
  const field = 'spec.parentRef';
  if (!ref) return [required(field)];
  const errors = ref.group ? isDns1123Subdomain(ref.group).map((detail) => invalid(`${field}.group`, ref.group, detail)) : [];
  errors.push(...pathSegmentErrors(ref.resource, `${field}.resource`, true));
  errors.push(...pathSegmentErrors(ref.name, `${field}.name`, true));
  errors.push(...pathSegmentErrors(ref.namespace, `${field}.namespace`, false));
  return errors;
}

/** validateIPAddress: a parent reference on create; on update it may not change. (The name,
 * an IP in canonical form, is checked by the `ip-address` name rule.) */
export function validateIPAddress(address: IPAddress, old?: IPAddress): FieldError[] {
  if (old) return validateImmutableField(address.spec.parentRef, old.spec.parentRef, 'spec.parentRef');
  return validateParentRef(address.spec.parentRef);
}

/** parentRefCell: `resource[.group]/[namespace/]name` in lower case, `<none>` without one (printIPAddress). */
function parentRefCell(address: IPAddress): string {
  const ref = address.spec?.parentRef;
  if (!ref) return '<none>';
  const resource = (ref.group ? `${ref.resource ?? ''}.${ref.group}` : (ref.resource ?? '')).toLowerCase();
  return `${resource}${ref.namespace ? `/${ref.namespace}` : ''}/${ref.name ?? ''}`;
}

/** ipAddressDefinition serves networking.k8s.io/v1 ipaddresses (cluster-scoped). */
export const ipAddressDefinition: ResourceDefinition<IPAddress> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IPAddress',
  plural: 'ipaddresses',
  singular: 'ipaddress',
  shortNames: ['ip'],
  categories: [],
  namespaced: false,
  nameRule: 'ip-address',
  schema: IPAddressSchema,
  validate: validateIPAddress,
  tracksGeneration: false,
  subresources: {},
  // kube-apiserver declares these two columns (its rows carry an age cell kubectl does not print).
  printColumns: [nameColumn, column('ParentRef', parentRefCell, { description: 'The object the address is allocated to.' })],
  protobuf: IPAddressMessage,
  storage: { resource: 'ipaddresses.networking.k8s.io' },
};
