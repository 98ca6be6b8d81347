/** Writes the kubeconfig that points kubectl and client libraries at a kubesim cluster. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import { ADMIN_IDENTITY, type ClientIdentity, type KeyPair } from '../apiserver/api/pki/issue.js';

export const CLUSTER_NAME = 'kubesim';

/** KubeconfigCredentials: the cluster CA to verify the server with, and the client
 * certificate (a key pair from that CA) to authenticate with. */
export interface KubeconfigCredentials extends KeyPair {
  caPem: string;
}

const base64 = (pem: string) => Buffer.from(pem, 'utf8').toString('base64');

/** kubeconfigYaml renders a kubeconfig for `server`. With credentials (an https server), it
 * carries the CA and the client certificate inline, as kubeadm's admin.conf does. Without (a
 * plain-http server), insecure-skip-tls-verify is set because @kubernetes/client-node refuses
 * plain-http clusters without it, and a placeholder token stands for "no credential". */
export function kubeconfigYaml(server: string, credentials?: KubeconfigCredentials, namespace = 'default'): string {
  const cluster = credentials ? { server, 'certificate-authority-data': base64(credentials.caPem) } : { server, 'insecure-skip-tls-verify': true };
  const user = credentials ? { 'client-certificate-data': base64(credentials.certPem), 'client-key-data': base64(credentials.keyPem) } : { token: 'kubesim' };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CLUSTER_NAME, cluster }],
    users: [{ name: CLUSTER_NAME, user }],
    contexts: [{ name: CLUSTER_NAME, context: { cluster: CLUSTER_NAME, user: CLUSTER_NAME, namespace } }],
    'current-context': CLUSTER_NAME,
    preferences: {},
  });
}

export function writeKubeconfig(path: string, server: string, credentials?: KubeconfigCredentials): void {
  writeKubeconfigFile(path, kubeconfigYaml(server, credentials));
}

/** writeKubeconfigFile writes kubeconfig YAML for its owner alone (it may hold a private key). */
export function writeKubeconfigFile(path: string, yaml: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, yaml, { mode: 0o600 });
}

/** A running API server, as far as a kubeconfig for it goes. */
interface KubeconfigServer {
  url: string;
  clusterCa: { certPem: string };
  clientCertificate(identity: ClientIdentity): Promise<KeyPair>;
}

/** serverKubeconfig is a kubeconfig for `server` as `identity` (kubernetes-admin by default):
 * with the CA and a client certificate for an https server, as today for a plain-http one. */
export async function serverKubeconfig(server: KubeconfigServer, identity: ClientIdentity = ADMIN_IDENTITY): Promise<string> {
  if (!server.url.startsWith('https:')) return kubeconfigYaml(server.url);
  return kubeconfigYaml(server.url, { caPem: server.clusterCa.certPem, ...(await server.clientCertificate(identity)) });
}
