/**
 * discovery.k8s.io/v1 EndpointSlice: a slice (at most 100 by the controller's choice, 1000 by
 * validation) of a Service's endpoints with their conditions and topology. Slices the
 * endpointslice controller manages carry `kubernetes.io/service-name` and
 * `endpointslice.kubernetes.io/managed-by` labels.
 */
import { z } from 'zod';
import { PROTOCOLS } from '../core/container.js';
import { ObjectReferenceSchema } from '../core/object-reference.js';
import { enumOf } from '../core/schema-helpers.js';
import { KIND_IDS } from '../kind-refs.js';
import { StringMapSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, required, validateImmutableField } from '../validation.js';

const DISCOVERY_V1 = 'io.k8s.api.discovery.v1';

/** SERVICE_NAME_LABEL names the Service a slice belongs to. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** MANAGED_BY_LABEL names the controller that manages a slice. */
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
/** ENDPOINTSLICE_CONTROLLER_MANAGER is the MANAGED_BY_LABEL value of the built-in controller. */
export const ENDPOINTSLICE_CONTROLLER_MANAGER = 'endpointslice-controller.k8s.io';

export const ADDRESS_TYPES = ['IPv4', 'IPv6', 'FQDN'] as const;

export const EndpointConditionsSchema = z
  .object({
    ready: z.boolean().optional().describe('The endpoint is ready to receive traffic (serving and not terminating).'),
    serving: z.boolean().optional().describe('The endpoint passes its readiness checks, whether or not it is terminating.'),
    terminating: z.boolean().optional().describe('The endpoint is terminating.'),
  })
  .meta({ id: `${DISCOVERY_V1}.EndpointConditions`, description: 'EndpointConditions are the current conditions of an endpoint.' });

export const EndpointSchema = z
  .object({
    addresses: z.array(z.string()).describe('Addresses of this endpoint (1 to 100; consumers use the first).'),
    conditions: EndpointConditionsSchema.optional().describe('Current state of the endpoint.'),
    hostname: z.string().optional().describe('Hostname of this endpoint.'),
    targetRef: ObjectReferenceSchema.optional().describe('Reference to the object providing the endpoint (a pod).'),
    deprecatedTopology: StringMapSchema.optional().describe('Deprecated topology labels.'),
    nodeName: z.string().optional().describe('The node hosting this endpoint.'),
    zone: z.string().optional().describe('The zone this endpoint exists in.'),
    hints: z
      .looseObject({})
      .meta({ id: `${DISCOVERY_V1}.EndpointHints` })
      .optional()
      .describe('Topology routing hints.'),
  })
  .meta({ id: `${DISCOVERY_V1}.Endpoint`, description: 'Endpoint represents a single logical backend of a service.' });

export type Endpoint = z.infer<typeof EndpointSchema>;

export const EndpointSlicePortSchema = z
  .object({
    name: z.string().optional().describe('Name of the port; matches the Service port name.'),
    protocol: enumOf(PROTOCOLS).optional().describe('TCP, UDP or SCTP. Defaults to TCP.'),
    port: z.int32().optional().describe('Port number of the endpoint; unset means all ports.'),
    appProtocol: z.string().optional().describe('Application protocol of the port.'),
  })
  .meta({ id: `${DISCOVERY_V1}.EndpointPort`, description: 'EndpointPort is a port used by the endpoints of a slice.' });

export type EndpointSlicePort = z.infer<typeof EndpointSlicePortSchema>;

export const EndpointSliceSchema = z
  .object({
    ...typeMetaFields('discovery.k8s.io/v1', 'EndpointSlice'),
    addressType: enumOf(ADDRESS_TYPES).describe('Type of the addresses: IPv4, IPv6 or FQDN.'),
    endpoints: z
      .array(EndpointSchema)
      .default(() => [])
      .describe('Unique endpoints of this slice (at most 1000).'),
    ports: z.array(EndpointSlicePortSchema).optional().describe('Network ports exposed by every endpoint of the slice.'),
  })
  .meta({ id: `${DISCOVERY_V1}.EndpointSlice`, description: 'EndpointSlice represents a subset of the endpoints that implement a service.' });

export type EndpointSlice = z.infer<typeof EndpointSliceSchema>;

const MAX_SHOWN = 3;

/** listWithMore joins the first three items, then ` + N more...`; `<unset>` when empty (kube's listWithMoreString). */
function listWithMore(items: string[]): string {
  if (items.length === 0) return '<unset>';
  const shown = items.slice(0, MAX_SHOWN).join(',');
  return items.length > MAX_SHOWN ? `${shown} + ${items.length - MAX_SHOWN} more...` : shown;
}

/** formatSlicePorts is the PORTS column: port numbers, a name when unset, `*` for all ports. */
export function formatSlicePorts(slice: EndpointSlice): string {
  return listWithMore((slice.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : (p.name ?? '*'))));
}

/** formatSliceEndpoints is the ENDPOINTS column: every address of every endpoint. */
export function formatSliceEndpoints(slice: EndpointSlice): string {
  return listWithMore((slice.endpoints ?? []).flatMap((e) => e.addresses));
}

/** validateEndpointSlice checks endpoint and address counts and port numbers, and on update
 * that the address type stays, as Kubernetes does. */
export function validateEndpointSlice(slice: EndpointSlice, old?: EndpointSlice): FieldError[] {
  const errors: FieldError[] = old ? validateImmutableField(slice.addressType, old.addressType, 'addressType') : [];
  if (slice.endpoints.length > 1000) errors.push({ type: 'FieldValueTooLong', field: 'endpoints', detail: 'must have at most 1000 items' });
  slice.endpoints.forEach((endpoint, i) => {
    if (endpoint.addresses.length === 0) errors.push(required(`endpoints[${i}].addresses`));
    if (endpoint.addresses.length > 100) errors.push({ type: 'FieldValueTooLong', field: `endpoints[${i}].addresses`, detail: 'must have at most 100 items' });
  });
  (slice.ports ?? []).forEach((port, i) => {
    if (port.port !== undefined && (port.port < 1 || port.port > 65535))
      errors.push(invalid(`ports[${i}].port`, port.port, 'must be between 1 and 65535, inclusive'));
  });
  return errors;
}

export const endpointSliceDefinition: ResourceDefinition<EndpointSlice> = {
  ...KIND_IDS.endpointSlice,
  singular: 'endpointslice',
  shortNames: [],
  categories: [],
  schema: EndpointSliceSchema,
  validate: validateEndpointSlice,
  tracksGeneration: true,
  subresources: {},
  printColumns: [
    nameColumn,
    column('AddressType', (s: EndpointSlice) => s.addressType, { description: 'Type of address carried by this EndpointSlice.' }),
    column('Ports', (s: EndpointSlice) => formatSlicePorts(s), { description: 'Ports of the endpoints.' }),
    column('Endpoints', (s: EndpointSlice) => formatSliceEndpoints(s), { description: 'Addresses of the endpoints.' }),
    ageColumn,
  ],
  liveView: 'endpointslices',
  storage: { resource: 'endpointslices.discovery.k8s.io' },
};
