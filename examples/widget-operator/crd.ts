/** The Website CRD (crd.yaml) and how a test or a setup script installs it. */
import { readFileSync } from 'node:fs';
import { ApiextensionsV1Api, type KubeConfig, loadYaml, type V1CustomResourceDefinition } from '@kubernetes/client-node';

/** websiteCrd reads crd.yaml (the same file `kubectl apply -f` takes). */
export function websiteCrd(): V1CustomResourceDefinition {
  return loadYaml<V1CustomResourceDefinition>(readFileSync(new URL('./crd.yaml', import.meta.url), 'utf8'));
}

/** installWebsiteCrd creates the CRD. Like `kubectl create`, it fails (409) if one by that name
 * exists. The API serves Websites once the CRD is Established: a kubesim test awaits
 * `cluster.settle()`; against a long-running cluster, `kubectl wait --for condition=established`. */
export async function installWebsiteCrd(kc: KubeConfig): Promise<V1CustomResourceDefinition> {
  return kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: websiteCrd() });
}
