/**
 * Where a webhook's clientConfig.service is served (kube-apiserver's endpoint routing): the
 * Service must exist and expose the port; the call goes to the first ready address of its
 * Endpoints (same name) or, failing that, of its EndpointSlices, on the matching target port.
 */
import type { RegistryContext } from '../../registry/context.js';
import { WebhookCallError } from './errors.js';

interface ServicePort {
  name?: string;
  port?: number;
  targetPort?: number | string;
}
interface EndpointPort {
  name?: string;
  port?: number;
}
interface EndpointSubset {
  addresses?: Array<{ ip?: string }>;
  ports?: EndpointPort[];
}
interface EndpointSlice {
  endpoints?: Array<{ addresses?: string[]; conditions?: { ready?: boolean } }>;
  ports?: EndpointPort[];
}

export interface Endpoint {
  host: string;
  port: number;
}

/** resolveServiceEndpoint finds an address serving `port` of Service namespace/name. Throws
 * WebhookCallError when there is none (the call failed; failurePolicy decides). */
export function resolveServiceEndpoint(ctx: RegistryContext, namespace: string, name: string, port: number): Endpoint {
  const service = getObject(ctx, 'services', namespace, name) as { spec?: { ports?: ServicePort[] } } | undefined;
  if (!service) throw new WebhookCallError(`failed to call webhook: service "${namespace}/${name}" not found`);
  const servicePort = (service.spec?.ports ?? []).find((p) => p.port === port);
  if (!servicePort) throw new WebhookCallError(`failed to call webhook: no service port ${port} found for service "${name}"`);
  const endpoint = fromEndpoints(ctx, namespace, name, servicePort) ?? fromSlices(ctx, namespace, name, servicePort);
  if (!endpoint) throw new WebhookCallError(`failed to call webhook: service "${namespace}/${name}" has no ready endpoints`);
  return endpoint;
}

function fromEndpoints(ctx: RegistryContext, namespace: string, name: string, servicePort: ServicePort): Endpoint | undefined {
  const endpoints = getObject(ctx, 'endpoints', namespace, name) as { subsets?: EndpointSubset[] } | undefined;
  for (const subset of endpoints?.subsets ?? []) {
    const port = targetPortIn(subset.ports, servicePort);
    const ip = subset.addresses?.[0]?.ip;
    if (port && ip) return { host: ip, port };
  }
  return undefined;
}

function fromSlices(ctx: RegistryContext, namespace: string, name: string, servicePort: ServicePort): Endpoint | undefined {
  const { items } = ctx.store.list({ resource: 'endpointslices.discovery.k8s.io', namespace });
  for (const item of items) {
    if ((item.metadata as { labels?: Record<string, string> }).labels?.['kubernetes.io/service-name'] !== name) continue;
    const slice = item as unknown as EndpointSlice;
    const port = targetPortIn(slice.ports, servicePort);
    const ready = slice.endpoints?.find((e) => e.conditions?.ready !== false && e.addresses?.length);
    if (port && ready?.addresses) return { host: ready.addresses[0] as string, port };
  }
  return undefined;
}

/** targetPortIn picks the endpoint port for the service port: by name when the service port
 * is named (how the endpoints controller pairs them), else the only one, else the target port. */
function targetPortIn(ports: EndpointPort[] | undefined, servicePort: ServicePort): number | undefined {
  if (!ports?.length) return undefined;
  if (servicePort.name) return ports.find((p) => p.name === servicePort.name)?.port;
  if (ports.length === 1) return ports[0]?.port;
  return ports.find((p) => p.port === servicePort.targetPort)?.port;
}

function getObject(ctx: RegistryContext, resource: string, namespace: string, name: string): unknown {
  try {
    return ctx.store.get({ resource, namespace, name });
  } catch {
    return undefined;
  }
}
