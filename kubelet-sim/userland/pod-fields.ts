/**
 * The downward API: pod fields (fieldRef) and container resources (resourceFieldRef) as the
 * kubelet renders them into environment variables and files.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { tryParseQuantity } from '../../apiserver/api/quantity.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';

type ReadonlyPod = DeepReadonly<Pod>;

/** mapText renders labels or annotations as the downward API file does: `key="value"` lines, sorted. */
function mapText(map: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((key) => `${key}=${JSON.stringify(map![key])}`)
    .join('\n');
}

/** podField: the value of a fieldRef path, or undefined when the path is not one the API allows. */
export function podField(pod: ReadonlyPod, path: string): string | undefined {
  const meta = pod.metadata ?? {};
  const keyed = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (keyed) return (keyed[1] === 'labels' ? meta.labels : meta.annotations)?.[keyed[2]!] ?? '';
  const status = (pod.status ?? {}) as { podIP?: string; podIPs?: ReadonlyArray<{ ip?: string }>; hostIP?: string; hostIPs?: ReadonlyArray<{ ip?: string }> };
  switch (path) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    case 'metadata.labels':
      return mapText(meta.labels);
    case 'metadata.annotations':
      return mapText(meta.annotations);
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.podIP':
      return status.podIP ?? '';
    case 'status.podIPs':
      return (status.podIPs ?? []).map((ip) => ip.ip).join(',');
    case 'status.hostIP':
      return status.hostIP ?? '';
    case 'status.hostIPs':
      return (status.hostIPs ?? []).map((ip) => ip.ip).join(',');
  }
  return undefined;
}

/** resourceField: a container's request or limit divided by divisor, rounded up, as the kubelet
 * does; a missing limit is the node's allocatable (nodeAllocatable), a missing request 0. */
export function resourceField(
  pod: ReadonlyPod,
  containerName: string,
  resource: string,
  divisor: string | undefined,
  nodeAllocatable: Readonly<Record<string, string>> | undefined,
): string {
  const container = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((c) => c.name === containerName);
  const [side, name] = resource.split(/\.(.*)/s) as [string, string];
  const resources = container?.resources as { limits?: Record<string, string>; requests?: Record<string, string> } | undefined;
  const declared = side === 'limits' ? (resources?.limits?.[name] ?? nodeAllocatable?.[name]) : resources?.requests?.[name];
  const quantity = tryParseQuantity(declared ?? (side === 'limits' ? (name === 'cpu' ? '1' : '0') : '0'));
  const by = tryParseQuantity(divisor ?? '1') ?? tryParseQuantity('1')!;
  if (!quantity) return '0';
  // Milli-units keep cpu divisors like 1m exact; memory sizes fit in a double.
  return String(Math.ceil(quantity.milliValue() / by.milliValue()));
}
