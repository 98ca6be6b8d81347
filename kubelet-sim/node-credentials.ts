/**
 * Each simulated node's own client identity, as a kubelet's kubelet.conf gives it: a
 * certificate for `system:node:<name>` in `system:nodes`, from the cluster CA, which the
 * kubelet-sim process is handed (kube-controller-manager's --cluster-signing-* flags) so it
 * can make one per node when it starts. ECDSA P-256: a node costs a key pair and a signature.
 */
import type { ClusterCa } from '../apiserver/api/pki/cluster-ca.js';
import { type ClientIdentity, issueClientCertificate, type KeyPair, nodeIdentity } from '../apiserver/api/pki/issue.js';
import type { ClientTls } from '../controllers/runtime/client/http-transport.js';

/** nodeCredentials makes each node's credentials from `ca` (with `issue`, the CA's own
 * issuing by default; a process-shared cache in startCluster). */
export function nodeCredentials(
  ca: ClusterCa,
  issue: (identity: ClientIdentity) => Promise<KeyPair> = (identity) => issueClientCertificate(ca, identity),
): (nodeName: string) => Promise<ClientTls> {
  return async (nodeName) => {
    const pair = await issue(nodeIdentity(nodeName));
    return { ca: ca.certPem, cert: pair.certPem, key: pair.keyPem };
  };
}
