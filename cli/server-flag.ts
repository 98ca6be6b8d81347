/**
 * `--server`: which API server(s) a component process talks to. It overrides the kubeconfig's
 * server URL only; the kubeconfig still gives the credentials and the CA. A comma-separated
 * list names several API servers of one cluster: the component uses one and moves to the next
 * when it fails (controllers/runtime/client/server-pool.ts).
 */
import type { KubeconfigTarget } from '../controllers/runtime/client/kubeconfig.js';
import { serverList } from '../controllers/runtime/client/server-pool.js';
import { type FlagSpec, type Flags, UsageError } from './args.js';

export const serverFlags: Record<string, FlagSpec> = {
  server: {
    type: 'string',
    description:
      "API server URL, or a comma-separated list of the cluster's API servers (one is used; the next takes over when it fails); overrides the kubeconfig's server, whose credentials and CA still apply",
  },
};

/** withServerFlag is `target` aimed at `--server` when it is given. Throws UsageError for a
 * list with an entry that is not an http(s) URL. */
export function withServerFlag(flags: Flags, target: KubeconfigTarget): KubeconfigTarget {
  const text = flags['server'];
  if (text === undefined) return target;
  const servers = serverList(String(text));
  if (servers.length === 0) throw new UsageError('--server needs an API server URL, e.g. https://127.0.0.1:6443');
  for (const server of servers) {
    if (!isHttpUrl(server)) throw new UsageError(`--server: ${JSON.stringify(server)} is not an http(s) URL such as https://127.0.0.1:6443`);
  }
  return { ...target, server: servers.join(',') };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
