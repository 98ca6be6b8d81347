/**
 * Where pods/proxy, services/proxy and nodes/proxy send a request, found as kube-apiserver's
 * ResourceLocation functions find it (pkg/registry/core/{pod,service,node}), with their errors:
 *
 *   pods/{name}[:port] or {scheme}:{name}:{port} → the pod's IP on that port (else the first
 *       declared container port); a pod without an IP is `address not allowed`;
 *   services/... → one ready address of the Service's Endpoints (service-endpoint.ts);
 *   nodes/{name}[:port] → the node's kubelet (no port, or the kubelet's), else that port on
 *       the node's address.
 *
 * kubesim's pods and nodes have no network of their own: a pod is reached through the kubelet
 * running it (pod-dialer.ts), a node's kubelet at its kubelet endpoint; any other node port is
 * closed (nothing else listens on a simulated node, and the API server must not become a
 * proxy to its own host's ports).
 */
import { ApiError, badRequest } from '../api/api-error.js';
import { goQuote } from '../api/machinery/go-quote.js';
import type { HandlerContext } from '../handlers/types.js';
import { type PodShape, podIP, served, serviceEndpoint } from './service-endpoint.js';

/** One of the three proxy subresources. */
export type ProxyKind = 'pods' | 'services' | 'nodes';

/** What a proxy request reaches. */
export type ProxyTarget =
  /** A port in a pod, through the kubelet (`host:port` of the kubelet) that runs it. */
  | { kind: 'pod'; scheme: string; kubelet: string; namespace: string; pod: string; address: string; port: number | string }
  /** A node's kubelet API itself. */
  | { kind: 'kubelet'; kubelet: string; node: string }
  /** An address where nothing listens. */
  | { kind: 'closed'; address: string };

/** splitSchemeNamePort reads `name`, `name:port` or `scheme:name:port` (kube's SplitSchemeNamePort:
 * the scheme must be http, https or empty, the name not empty). */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  const [scheme, name, port] = parts.length === 3 ? parts : ['', parts[0]!, parts[1] ?? ''];
  if (parts.length > 3 || name === '' || !['', 'http', 'https'].includes(scheme!)) return undefined;
  return { scheme: scheme!, name: name!, port: port! };
}

const PROXY_NOUN: Record<ProxyKind, string> = { pods: 'pod', services: 'service', nodes: 'node' };

/** proxyTarget resolves `id` (the path segment before /proxy) or throws kube-apiserver's error. */
export function proxyTarget(ctx: HandlerContext, kind: ProxyKind, namespace: string, id: string): ProxyTarget {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw badRequest(`invalid ${PROXY_NOUN[kind]} request ${goQuote(id)}`);
  if (kind === 'nodes') return nodeTarget(ctx, parsed);
  if (kind === 'pods') return podTarget(ctx, namespace, parsed.name, parsed.scheme, parsed.port);
  const endpoint = serviceEndpoint(ctx, namespace, id, parsed);
  return podTarget(ctx, namespace, endpoint.pod, parsed.scheme, String(endpoint.port));
}

function podTarget(ctx: HandlerContext, namespace: string, name: string, scheme: string, port: string): ProxyTarget {
  const pod = served(ctx, 'pods', namespace, name) as PodShape;
  const declared = pod.spec?.containers?.find((c) => (c.ports?.length ?? 0) > 0)?.ports?.[0]?.containerPort;
  const chosen = port !== '' ? port : declared !== undefined ? String(declared) : scheme === 'https' ? '443' : '80';
  const ip = podIP(pod);
  if (!ip) throw badRequest('address not allowed');
  const address = `${ip.includes(':') ? `[${ip}]` : ip}:${chosen}`;
  // A pod gets an IP from the kubelet running it; one whose node cannot be reached answers nothing.
  const kubelet = pod.spec?.nodeName ? kubeletOf(nodeOf(ctx, pod.spec.nodeName)) : undefined;
  if (!kubelet) return { kind: 'closed', address };
  const portOrName = /^\d+$/.test(chosen) ? Number(chosen) : chosen;
  return { kind: 'pod', scheme, kubelet: kubelet.endpoint, namespace, pod: name, address, port: portOrName };
}

function nodeTarget(ctx: HandlerContext, parsed: { name: string; port: string }): ProxyTarget {
  const node = served(ctx, 'nodes', '', parsed.name) as NodeShape;
  const kubelet = kubeletOf(node);
  if (!kubelet) {
    // kube's NoMatchError (which it answers as a 500; a node without an address is not the client's mistake).
    const known = (node.status?.addresses ?? []).map((a) => `{${a.type} ${a.address}}`).join(' ');
    throw new ApiError('ServiceUnavailable', 503, `no preferred addresses found; known addresses: [${known}]`);
  }
  if (parsed.port === '' || parsed.port === String(kubelet.port)) return { kind: 'kubelet', kubelet: kubelet.endpoint, node: parsed.name };
  return { kind: 'closed', address: `${kubelet.host}:${parsed.port}` };
}

interface NodeShape {
  status?: { addresses?: Array<{ type?: string; address?: string }>; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } };
}

function nodeOf(ctx: HandlerContext, name: string): NodeShape | undefined {
  try {
    return served(ctx, 'nodes', '', name) as NodeShape;
  } catch {
    return undefined;
  }
}

/** kubeletOf is where a node's kubelet listens (InternalIP, daemonEndpoints), if it says. */
function kubeletOf(node: NodeShape | undefined): { host: string; port: number; endpoint: string } | undefined {
  const ip = node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  const port = node?.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!ip || !port) return undefined;
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return { host, port, endpoint: `${host}:${port}` };
}
