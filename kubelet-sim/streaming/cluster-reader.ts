/** The ClusterReader a container's userland reads cluster objects through: the kubelet's own
 * client, one GET per call (the userland caches nothing it cannot invalidate), and the
 * TokenRequest a kubelet makes for a projected service-account token volume. */
import { ApiError, isNotFound } from '../../apiserver/api/api-error.js';
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
  // An empty namespace, as for undefined, names a cluster-scoped resource (nodes).
  return namespace ? `${root}/namespaces/${encodeURIComponent(namespace)}/${resource}` : `${root}/${resource}`;
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
    async requestToken(namespace, serviceAccount, { audience, expirationSeconds, podName, podUid }) {
      const tokenRequest = {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {
          audiences: audience ? [audience] : [],
          expirationSeconds,
          boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: podName, uid: podUid },
        },
      };
      const path = `${collectionPath('serviceaccounts', namespace)}/${encodeURIComponent(serviceAccount)}/token`;
      try {
        const answer = (await client.raw({ method: 'POST', path, body: JSON.stringify(tokenRequest), contentType: 'application/json' })) as {
          status?: { token?: string };
        };
        return answer.status?.token;
      } catch (err) {
        // Refused (the account or the pod is gone, or replaced): the volume gets no token.
        if (err instanceof ApiError) return undefined;
        throw err;
      }
    },
  };
}
