/** Writes the kubeconfig that points kubectl and client libraries at a kubesim cluster. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export const CLUSTER_NAME = 'kubesim';

/** kubeconfigYaml renders a kubeconfig for `server`. insecure-skip-tls-verify is set because
 * @kubernetes/client-node refuses plain-http clusters without it. */
export function kubeconfigYaml(server: string, namespace = 'default'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CLUSTER_NAME, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: CLUSTER_NAME, user: { token: 'kubesim' } }],
    contexts: [{ name: CLUSTER_NAME, context: { cluster: CLUSTER_NAME, user: CLUSTER_NAME, namespace } }],
    'current-context': CLUSTER_NAME,
    preferences: {},
  });
}

export function writeKubeconfig(path: string, server: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, kubeconfigYaml(server), { mode: 0o600 });
}
