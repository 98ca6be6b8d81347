/**
 * Where pods/exec, pods/attach and pods/portforward are served: the pod's kubelet, found as
 * kube-apiserver's ExecLocation, AttachLocation and PortForwardLocation find it, with their
 * errors — the pod must exist, the container be one of the pod's (or, unnamed, the only one),
 * the pod be bound to a node — and the options passed on in the kubelet's query parameters
 * (input, output, error, tty, command; port).
 */
import type { IncomingMessage } from 'node:http';
import { badRequest, internalError } from '../api/api-error.js';
import { kubeletEndpoint } from '../handlers/pod-handlers.js';
import type { HandlerContext } from '../handlers/types.js';
import { readStored } from '../registry/context.js';
import { toServed } from '../registry/object-codec.js';

export type StreamSubresource = 'exec' | 'attach' | 'portforward';

/** The pod and subresource an upgrade request names. */
export interface StreamRequest {
  namespace: string;
  pod: string;
  subresource: StreamSubresource;
}

const STREAM_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(exec|attach|portforward)\/?$/;

/** streamRequestOf reads the pod and subresource from an upgrade's path (undefined for other paths). */
export function streamRequestOf(pathname: string): StreamRequest | undefined {
  const match = STREAM_PATH.exec(pathname);
  if (!match) return undefined;
  return { namespace: decodeURIComponent(match[1]!), pod: decodeURIComponent(match[2]!), subresource: match[3] as StreamSubresource };
}

interface PodShape {
  spec?: {
    nodeName?: string;
    containers?: Array<{ name: string }>;
    initContainers?: Array<{ name: string }>;
    ephemeralContainers?: Array<{ name: string }>;
  };
}

/** streamLocation answers the kubelet URL of the request, or throws the ApiError kube-apiserver would. */
export function streamLocation(ctx: HandlerContext, stream: StreamRequest, request: IncomingMessage): URL {
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
  const def = ctx.registry.find('', 'v1', 'pods');
  if (!def) throw internalError('pods are not served');
  const pod = toServed(def, readStored(ctx, { def, namespace: stream.namespace, name: stream.pod })) as unknown as PodShape;
  const container = stream.subresource === 'portforward' ? undefined : validContainer(pod, stream.pod, query.get('container') ?? '');
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${stream.pod} does not have a host assigned`);
  const path = container === undefined ? ['portForward', stream.namespace, stream.pod] : [stream.subresource, stream.namespace, stream.pod, container];
  const url = new URL(`http://${kubeletEndpoint(ctx, nodeName)}/${path.map(encodeURIComponent).join('/')}`);
  kubeletQuery(stream.subresource, query, url.searchParams);
  return url;
}

/** validContainer is kube-apiserver's validateContainer: the named container must be the
 * pod's; unnamed, the pod's only container. */
function validContainer(pod: PodShape, podName: string, container: string): string {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])].map((c) => c.name);
  if (container !== '') {
    if (!all.includes(container)) throw badRequest(`container ${container} is not valid for pod ${podName}`);
    return container;
  }
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 1) return containers[0]!.name;
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${podName}`);
  throw badRequest(`a container name must be specified for pod ${podName}, choose one of: [${all.join(' ')}]`);
}

/** Go's strconv.ParseBool spellings of true. */
const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** kubeletQuery turns PodExecOptions / PodAttachOptions / PodPortForwardOptions into the
 * kubelet's parameters (stdout defaults to true, as SetDefaults_PodExecOptions has it). */
function kubeletQuery(subresource: StreamSubresource, query: URLSearchParams, out: URLSearchParams): void {
  if (subresource === 'portforward') {
    const ports = query.getAll('ports').flatMap((value) => value.split(','));
    if (ports.length > 0) out.set('port', ports.join(','));
    return;
  }
  const flag = (name: string, fallback: boolean) => (query.has(name) ? TRUE.has(query.get(name) ?? '') : fallback);
  if (flag('stdin', false)) out.set('input', '1');
  if (flag('stdout', true)) out.set('output', '1');
  if (flag('stderr', false)) out.set('error', '1');
  if (flag('tty', false)) out.set('tty', '1');
  if (subresource === 'exec') for (const command of query.getAll('command')) out.append('command', command);
}
