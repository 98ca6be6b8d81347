/**
 * core/v1 Endpoints: the addresses behind a Service, grouped into subsets that share a port
 * list. Maintained by the endpoints controller for Services with a selector (named like the
 * Service); superseded by discovery.k8s.io EndpointSlices but still read by kubectl.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, required } from '../validation.js';
import { PROTOCOLS } from './container.js';
import { ObjectReferenceSchema } from './object-reference.js';
import { enumOf, K8S_CORE } from './schema-helpers.js';

export const EndpointAddressSchema = z
  .object({
    ip: z.string().describe('The IP of this endpoint.'),
    hostname: z.string().optional().describe('The hostname of this endpoint.'),
    nodeName: z.string().optional().describe('The node hosting this endpoint.'),
    targetRef: ObjectReferenceSchema.optional().describe('Reference to the object providing the endpoint (a pod).'),
  })
  .meta({ id: `${K8S_CORE}.EndpointAddress`, description: 'EndpointAddress is a single IP address of an endpoint.' });

export type EndpointAddress = z.infer<typeof EndpointAddressSchema>;

export const EndpointPortSchema = z
  .object({
    name: z.string().optional().describe('The name of this port; must match a ServicePort name.'),
    port: z.int32().describe('The port number of the endpoint.'),
    protocol: enumOf(PROTOCOLS).optional().describe('TCP, UDP or SCTP. Defaults to TCP.'),
    appProtocol: z.string().optional().describe('The application protocol for this port.'),
  })
  .meta({ id: `${K8S_CORE}.EndpointPort`, description: 'EndpointPort is a port of an endpoint.' });

export type EndpointPort = z.infer<typeof EndpointPortSchema>;

export const EndpointSubsetSchema = z
  .object({
    addresses: z.array(EndpointAddressSchema).optional().describe('Addresses that are ready to take traffic.'),
    notReadyAddresses: z.array(EndpointAddressSchema).optional().describe('Addresses that are not (yet) ready.'),
    ports: z.array(EndpointPortSchema).optional().describe('Port numbers available on the addresses.'),
  })
  .meta({ id: `${K8S_CORE}.EndpointSubset`, description: 'EndpointSubset is a group of addresses sharing a set of ports.' });

export type EndpointSubset = z.infer<typeof EndpointSubsetSchema>;

export const EndpointsSchema = z
  .object({
    ...typeMetaFields('v1', 'Endpoints'),
    subsets: z.array(EndpointSubsetSchema).optional().describe('The set of all endpoints, grouped by the ports they share.'),
  })
  .meta({ id: `${K8S_CORE}.Endpoints`, description: 'Endpoints is the collection of endpoints implementing a service.' });

export type Endpoints = z.infer<typeof EndpointsSchema>;

/** ENDPOINTS_MAX_SHOWN is how many `ip:port` pairs the ENDPOINTS column lists before `+ N more...`. */
const ENDPOINTS_MAX_SHOWN = 3;

/**
 * formatEndpoints renders the ENDPOINTS column as kube's printer does: ready `ip:port` pairs
 * (bare IPs for a subset without ports), at most three then ` + N more...`; `<none>` without
 * subsets (and empty when every address is not ready).
 */
export function formatEndpoints(endpoints: Endpoints): string {
  const subsets = endpoints.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const all: string[] = [];
  for (const subset of subsets) {
    const ips = (subset.addresses ?? []).map((a) => a.ip);
    const ports = subset.ports ?? [];
    if (ports.length === 0) all.push(...ips);
    else for (const port of ports) all.push(...ips.map((ip) => joinHostPort(ip, port.port)));
  }
  const shown = all.slice(0, ENDPOINTS_MAX_SHOWN).join(',');
  return all.length > ENDPOINTS_MAX_SHOWN ? `${shown} + ${all.length - ENDPOINTS_MAX_SHOWN} more...` : shown;
}

/** joinHostPort is Go's net.JoinHostPort: IPv6 addresses in brackets. */
function joinHostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** validateEndpoints checks what Kubernetes' ValidateEndpoints does that the schema cannot: ports in range. */
export function validateEndpoints(endpoints: Endpoints): FieldError[] {
  const errors: FieldError[] = [];
  (endpoints.subsets ?? []).forEach((subset, i) => {
    (subset.ports ?? []).forEach((port, j) => {
      if (port.port < 1 || port.port > 65535) errors.push(invalid(`subsets[${i}].ports[${j}].port`, port.port, 'must be between 1 and 65535, inclusive'));
    });
    for (const key of ['addresses', 'notReadyAddresses'] as const) {
      (subset[key] ?? []).forEach((address, j) => {
        if (!address.ip) errors.push(required(`subsets[${i}].${key}[${j}].ip`));
      });
    }
  });
  return errors;
}

export const endpointsDefinition: ResourceDefinition<Endpoints> = {
  ...KIND_IDS.endpoints,
  singular: 'endpoints',
  shortNames: ['ep'],
  categories: [],
  schema: EndpointsSchema,
  validate: validateEndpoints,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Endpoints', (e: Endpoints) => formatEndpoints(e), { description: 'Endpoints is the list of ready ip:port pairs of the endpoints.' }),
    ageColumn,
  ],
  storage: { resource: 'endpoints' },
};
