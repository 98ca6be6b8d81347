/**
 * NodeControl over a kubeconfig: node names from the API server, stop/start through each
 * node's kubelet admin API (the same path `kubesim node stop|start` takes).
 */
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { setNodeKubelet, withClient } from '../commands/node.js';
import type { NodeControl } from './chaos.js';

/** kubeconfigNodes controls the nodes of the cluster `kubeconfig` names; it reads the file at
 * each call, so it may be created before `kubesim up` writes it. */
export function kubeconfigNodes(kubeconfig: string): NodeControl {
  return {
    names: () => withClient(kubeconfig, async (client) => (await client.resource(nodeDefinition).list()).items.map((n) => n.metadata.name ?? '').sort()),
    set: (name, action) => setNodeKubelet({ kubeconfig, name, action }),
  };
}
