/**
 * Pod subresources: binding (the scheduler's way to set spec.nodeName) and log (where the
 * pod's kubelet serves it; log-proxy.ts streams it). Eviction, a budget-checked delete, is in
 * eviction-handler.ts.
 */
import { admitAndWrite, andThen } from '../admission/chain.js';
import { badRequest, conflict, internalError } from '../api/api-error.js';
import type { PodSpec } from '../api/core/pod-spec.js';
import { allContainers } from '../api/core/pod-spec-defaults.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { KubeObject } from '../api/resource-definition.js';
import { readStored, resourceName, type Target } from '../registry/context.js';
import { toServed } from '../registry/object-codec.js';
import { updateObject } from '../registry/update.js';
import { decodeObjectBody, isPlainObject } from '../request/body.js';
import { isDryRun, queryString } from '../request/query.js';
import { type ApiRequest, type HandlerContext, type MaybeAsyncResponse, targetOf } from './types.js';

interface PodShape {
  spec?: { nodeName?: string; containers?: Array<{ name: string }>; initContainers?: Array<{ name: string }> };
  status?: { conditions?: Array<{ type: string; status: string; lastTransitionTime?: string; lastProbeTime?: string }> };
}

interface NodeShape {
  status?: { addresses?: Array<{ type: string; address: string }>; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } };
}

const successStatus = (code: number) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code });

/** bindingHandler answers POST pods/{name}/binding: sets spec.nodeName and PodScheduled=True
 * and copies the Binding's metadata.annotations onto the pod (as kube-apiserver's
 * setPodHostAndAnnotations does; the scheduler records its decision this way), 409 if the
 * pod is already bound. */
export function bindingHandler(ctx: HandlerContext, request: ApiRequest): MaybeAsyncResponse {
  const target = targetOf(request.path);
  const binding = decodeObjectBody(request.contentType, request.body);
  const node = isPlainObject(binding['target']) ? binding['target']['name'] : undefined;
  if (typeof node !== 'string' || node === '') throw badRequest('Binding target.name is required');
  const annotations = bindingAnnotations(binding);
  const dryRun = isDryRun(request.query);
  const warnings: string[] = [];
  const attributes = {
    operation: 'CREATE',
    def: target.def,
    subresource: 'binding',
    namespace: target.namespace,
    name: target.name,
    object: binding as KubeObject,
    dryRun,
  } as const;
  const bound = admitAndWrite(ctx, { admission: ctx.admission, warnings }, attributes, () => bind(ctx, target, node, annotations, dryRun));
  return andThen(bound, () => ({ status: 201, body: successStatus(201), warnings }));
}

function bind(ctx: HandlerContext, target: Target, node: string, annotations: Record<string, string> | undefined, dryRun: boolean): void {
  updateObject(ctx, target, {
    scope: 'server',
    dryRun,
    computeNext: (pod) => {
      const shaped = pod as typeof pod & PodShape;
      if (shaped.spec?.nodeName) {
        // Kubernetes names the subresource here: `Operation cannot be fulfilled on pods/binding "p": ...`.
        throw conflict({ ...resourceName(target), resource: 'pods/binding' }, `pod ${target.name} is already assigned to node "${shaped.spec.nodeName}"`);
      }
      shaped.spec = { ...shaped.spec, nodeName: node };
      if (annotations) pod.metadata.annotations = { ...pod.metadata.annotations, ...annotations };
      const conditions = (shaped.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
      conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: undefined, lastTransitionTime: rfc3339(ctx.now()) });
      shaped.status = { ...shaped.status, conditions };
      return pod;
    },
  });
}

/** bindingAnnotations are the Binding's metadata.annotations when it has string ones. */
function bindingAnnotations(binding: Record<string, unknown>): Record<string, string> | undefined {
  const metadata = binding['metadata'];
  const annotations = isPlainObject(metadata) ? metadata['annotations'] : undefined;
  if (!isPlainObject(annotations)) return undefined;
  const entries = Object.entries(annotations).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** LOG_QUERY_PARAMETERS are the PodLogOptions passed on to the kubelet. */
const LOG_QUERY_PARAMETERS = ['follow', 'previous', 'timestamps', 'tailLines', 'sinceSeconds', 'sinceTime', 'limitBytes'] as const;

/**
 * logLocation answers where GET pods/{name}/log is served, as kube-apiserver's LogLocation
 * does: the containerLogs endpoint of the kubelet of the pod's node (its InternalIP and
 * status.daemonEndpoints.kubeletEndpoint.Port), with the PodLogOptions. Throws the
 * Kubernetes errors for an unknown container, an unscheduled pod or an unreachable node.
 */
export function logLocation(ctx: HandlerContext, request: ApiRequest): URL {
  const target = targetOf(request.path);
  const pod = toServed(target.def, readStored(ctx, target)) as unknown as PodShape;
  const containers = pod.spec ? allContainers(pod.spec as PodSpec) : [];
  const appContainers = pod.spec?.containers ?? [];
  const container = queryString(request.query, 'container') ?? (appContainers.length === 1 ? appContainers[0]?.name : undefined);
  if (!container) {
    throw badRequest(`a container name must be specified for pod ${target.name}, choose one of: [${appContainers.map((c) => c.name).join(' ')}]`);
  }
  if (!containers.some((c) => c.name === container)) throw badRequest(`container ${container} is not valid for pod ${target.name}`);
  if (!pod.spec?.nodeName) throw badRequest(`container "${container}" in pod "${target.name}" is waiting to start: ContainerCreating`);
  const endpoint = kubeletEndpoint(ctx, pod.spec.nodeName);
  const url = new URL(`http://${endpoint}/containerLogs/${[target.namespace, target.name, container].map(encodeURIComponent).join('/')}`);
  for (const name of LOG_QUERY_PARAMETERS) {
    const value = queryString(request.query, name);
    if (value !== undefined && value !== '') url.searchParams.set(name, value);
  }
  return url;
}

/** kubeletEndpoint is `host:port` of a node's kubelet, from its Node object. */
export function kubeletEndpoint(ctx: HandlerContext, nodeName: string): string {
  const def = ctx.registry.find('', 'v1', 'nodes');
  if (!def) throw internalError('nodes are not served');
  const node = readStored(ctx, { def, namespace: '', name: nodeName }) as unknown as NodeShape;
  const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!ip || !port) throw internalError(`node "${nodeName}" reports no kubelet endpoint (InternalIP address and daemonEndpoints.kubeletEndpoint.Port)`);
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}
