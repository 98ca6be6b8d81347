/**
 * Which pod answers services/{name}[:port]/proxy: kube-apiserver's rule (the Service REST's
 * ResourceLocation). A port *number* is first turned into the name of the Service port that
 * has it; then a random subset of the Service's Endpoints is searched for a port of that name
 * (no port given: the unnamed one), and a random ready address of it is taken, checked to be a
 * pod that still has that IP.
 */
import { ApiError } from '../api/api-error.js';
import { goQuote } from '../api/machinery/go-quote.js';
import type { HandlerContext } from '../handlers/types.js';
import { readStored } from '../registry/context.js';
import { toServed } from '../registry/object-codec.js';

export interface PodShape {
  spec?: { nodeName?: string; containers?: Array<{ ports?: Array<{ containerPort?: number }> }> };
  status?: { podIP?: string; podIPs?: Array<{ ip?: string }> };
}

interface EndpointAddress {
  ip?: string;
  targetRef?: { kind?: string; name?: string; namespace?: string };
}

interface EndpointsShape {
  subsets?: Array<{ addresses?: EndpointAddress[]; ports?: Array<{ name?: string; port?: number }> }>;
}

/** The endpoint a Service proxy request goes to: a pod of the Service's namespace and its port. */
export interface ServiceEndpoint {
  pod: string;
  port: number;
}

/** podIP is a pod's primary IP (status.podIPs[0]), or undefined before it has one. */
export function podIP(pod: PodShape): string | undefined {
  return pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP ?? undefined;
}

/** Picks an index in [0, n): random, as kube-apiserver's choice is (tests may pass their own). */
export type Pick = (n: number) => number;

const randomPick: Pick = (n) => Math.floor(Math.random() * n);

/** serviceEndpoint resolves a services/proxy id (already split) or throws kube's error. */
export function serviceEndpoint(
  ctx: HandlerContext,
  namespace: string,
  id: string,
  parsed: { name: string; port: string },
  pick: Pick = randomPick,
): ServiceEndpoint {
  const portName = /^-?\d+$/.test(parsed.port) ? servicePortName(ctx, namespace, parsed.name, Number(parsed.port)) : parsed.port;
  const endpoints = served(ctx, 'endpoints', namespace, parsed.name) as EndpointsShape;
  const subsets = endpoints.subsets ?? [];
  const unavailable = (name: string) => new ApiError('ServiceUnavailable', 503, `no endpoints available for service ${goQuote(name)}`);
  if (subsets.length === 0) throw unavailable(parsed.name);
  const firstSubset = pick(subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const subset = subsets[(firstSubset + i) % subsets.length]!;
    const addresses = subset.addresses ?? [];
    const port = addresses.length > 0 ? subset.ports?.find((p) => (p.name ?? '') === portName)?.port : undefined;
    if (port === undefined) continue;
    const firstAddress = pick(addresses.length);
    for (let j = 0; j < addresses.length; j++) {
      const pod = validPod(ctx, namespace, addresses[(firstAddress + j) % addresses.length]!);
      if (pod) return { pod, port };
    }
  }
  // kube names the whole id here (`web:http`), the bare name above.
  throw unavailable(id);
}

/** servicePortName is the name of the Service port numbered `port` (kube: `no service port …`). */
function servicePortName(ctx: HandlerContext, namespace: string, name: string, port: number): string {
  const service = served(ctx, 'services', namespace, name) as { spec?: { ports?: Array<{ name?: string; port?: number }> } };
  const found = service.spec?.ports?.find((p) => p.port === port);
  if (!found) throw new ApiError('ServiceUnavailable', 503, `no service port ${port} found for service ${goQuote(name)}`);
  return found.name ?? '';
}

/** validPod is kube's isValidAddress: the address must name a pod of this namespace that has
 * that IP; answers the pod's name. */
function validPod(ctx: HandlerContext, namespace: string, address: EndpointAddress): string | undefined {
  const ref = address.targetRef;
  if (ref?.kind !== 'Pod' || !ref.name || (ref.namespace && ref.namespace !== namespace)) return undefined;
  try {
    const pod = served(ctx, 'pods', namespace, ref.name) as PodShape;
    const ips = [...(pod.status?.podIPs ?? []).map((p) => p.ip), pod.status?.podIP];
    return ips.includes(address.ip) ? ref.name : undefined;
  } catch {
    return undefined;
  }
}

/** served reads one core/v1 object as clients see it (throws `<resource> "name" not found`). */
export function served(ctx: HandlerContext, resource: string, namespace: string, name: string): unknown {
  const def = ctx.registry.find('', 'v1', resource);
  if (!def) throw new ApiError('NotFound', 404, 'the server could not find the requested resource');
  return toServed(def, readStored(ctx, { def, namespace, name }));
}
