/** The ClusterReader a container's userland reads cluster objects through: the kubelet's own
 * client, one GET per call (the userland caches nothing it cannot invalidate). */
import { isNotFound } from '../../apiserver/api/api-error.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import type { ClusterReader } from '../userland/contract.js';

/** Where each resource a userland reads is served (core unless named here). */
const GROUP_VERSIONS: Record<string, string> = {
  endpointslices: 'discovery.k8s.io/v1',
  networkpolicies: 'networking.k8s.io/v1',
  ingresses: 'networking.k8s.io/v1',
};

function collectionPath(resource: string, namespace: string | undefined): string {
  const groupVersion = GROUP_VERSIONS[resource];
  const root = groupVersion ? `/apis/${groupVersion}` : '/api/v1';
  return namespace === undefined ? `${root}/${resource}` : `${root}/namespaces/${encodeURIComponent(namespace)}/${resource}`;
}

export function createClusterReader(client: KubeClient): ClusterReader {
  return {
    async get(resource, namespace, name) {
      try {
        return (await client.raw({ method: 'GET', path: `${collectionPath(resource, namespace)}/${encodeURIComponent(name)}` })) as Record<string, unknown>;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async list(resource, namespace) {
      const list = (await client.raw({ method: 'GET', path: collectionPath(resource, namespace) })) as { items?: Record<string, unknown>[] };
      return list.items ?? [];
    },
  };
}
