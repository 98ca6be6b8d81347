/**
 * The root CA publisher (kube-controller-manager's root-ca-cert-publisher): every active
 * namespace has a ConfigMap `kube-root-ca.crt` whose `ca.crt` is the cluster CA certificate,
 * so pods can trust the API server. A deleted one is created again, an edited one restored.
 * The certificate comes from the CA file the process was given (--cluster-signing-cert-file).
 */
import { readFileSync } from 'node:fs';
import { isAlreadyExists } from '../../apiserver/api/api-error.js';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { type Namespace, namespaceDefinition } from '../../apiserver/api/core/namespace.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { isActiveNamespace, isRefusedByTerminatingNamespace } from '../runtime/namespaces.js';
import { requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister, Reconciler, ResourceClient } from '../runtime/types.js';

/** ROOT_CA_PUBLISHER_NAME names the controller in logs and counters. */
export const ROOT_CA_PUBLISHER_NAME = 'root-ca-cert-publisher';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
/** The description kube-controller-manager puts on the ConfigMap, word for word. */
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCaReconcilerDeps {
  namespaceLister: Lister<Namespace>;
  configMapLister: Lister<ConfigMap>;
  configMaps: Pick<ResourceClient<ConfigMap>, 'create' | 'update'>;
  /** The CA certificate (PEM) to publish. */
  caCertificate(): string;
}

/** createRootCaReconciler returns the Reconciler of one namespace (keyed by its name). */
export function createRootCaReconciler(deps: RootCaReconcilerDeps): Reconciler {
  return {
    reconcile: async ({ name: namespace }) => {
      if (!isActiveNamespace(deps.namespaceLister.get('', namespace))) return {};
      const data = { 'ca.crt': deps.caCertificate() };
      const current = deps.configMapLister.get(namespace, ROOT_CA_CONFIGMAP);
      try {
        if (!current) await deps.configMaps.create(published(namespace, data));
        else if (!deepEqual(current.data ?? {}, data) || !current.metadata.annotations?.[DESCRIPTION_ANNOTATION]) {
          const restored = structuredClone(current) as ConfigMap;
          restored.data = data;
          restored.metadata.annotations = { ...restored.metadata.annotations, [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION };
          await deps.configMaps.update(restored);
        }
      } catch (err) {
        if (!isAlreadyExists(err) && !isRefusedByTerminatingNamespace(err)) throw err;
      }
      return {};
    },
  };
}

function published(namespace: string, data: Record<string, string>): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
    data,
  };
}

/** registerRootCaPublisher: namespaces wake themselves; a change to or deletion of a
 * `kube-root-ca.crt` ConfigMap wakes its namespace. Without the CA's files the loop has
 * nothing to publish and says so. */
export function registerRootCaPublisher(manager: Manager, { workers = 1 }: { workers?: number } = {}): Controller | undefined {
  const files = manager.clusterCa;
  if (!files) {
    manager.logger.warn({}, 'no cluster CA given (--cluster-signing-cert-file): kube-root-ca.crt is not published');
    return undefined;
  }
  const onlyRootCa = { fieldSelector: `metadata.name=${ROOT_CA_CONFIGMAP}` };
  const namespaceLister = manager.informer(namespaceDefinition).lister;
  const configMapLister = manager.informer(configMapDefinition, onlyRootCa).lister;
  const namespaceOf = (cm: DeepReadonly<ConfigMap>) => [requestKey({ namespace: '', name: cm.metadata.namespace ?? '' })];
  const caCertificate = cachedFile(files.certFile);
  return newControllerManagedBy(manager)
    .named(ROOT_CA_PUBLISHER_NAME)
    .for(namespaceDefinition)
    .watches(configMapDefinition, namespaceOf, { informer: onlyRootCa, predicates: { add: () => false } })
    .workers(workers)
    .complete(() => createRootCaReconciler({ namespaceLister, configMapLister, configMaps: manager.client.resource(configMapDefinition), caCertificate }));
}

/** cachedFile reads a file once, on first use. */
function cachedFile(path: string): () => string {
  let text: string | undefined;
  return () => (text ??= readFileSync(path, 'utf8'));
}
