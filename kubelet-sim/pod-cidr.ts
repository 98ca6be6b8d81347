/**
 * Pod CIDRs of simulated nodes. A node's /24 follows from its index alone — never from its
 * name — so kubelet-sim processes sharing a cluster must simulate disjoint index ranges
 * (`--start-index`); the prefix only names the nodes. assertPodCidrsFree checks that at start.
 *
 * Index → /24: 0–255 are 10.244.<index>.0/24 (the usual cluster CIDR 10.244.0.0/16), then
 * 10.245–10.255, then 10.112–10.243 (skipping the service range 10.96.0.0/12): 36,864 nodes
 * before ranges repeat.
 */
import type { KubeClient } from '../controllers/runtime/client/http-client.js';
import { KINDS } from '../controllers/runtime/kinds.js';

const SECOND_OCTETS = [...range(244, 255), ...range(112, 243)];
const DISTINCT_RANGES = SECOND_OCTETS.length * 256;

/** podNetworkPrefix is the first three octets of node `index`'s /24, with a trailing dot. */
export function podNetworkPrefix(index: number): string {
  const slot = ((index % DISTINCT_RANGES) + DISTINCT_RANGES) % DISTINCT_RANGES;
  return `10.${SECOND_OCTETS[Math.floor(slot / 256)]}.${slot % 256}.`;
}

/** podCidrOfIndex is node `index`'s pod range, e.g. 10.244.3.0/24. */
export function podCidrOfIndex(index: number): string {
  return `${podNetworkPrefix(index)}0/24`;
}

/** assertPodCidrsFree throws when a node not in `nodes` already holds the pod CIDR one of
 * `nodes` would get: another kubelet-sim process simulates an overlapping index range. */
export async function assertPodCidrsFree(client: KubeClient, nodes: ReadonlyArray<{ name: string; index: number }>): Promise<void> {
  const mine = new Set(nodes.map((node) => node.name));
  const holders = new Map<string, string>();
  for (const node of (await client.resource(KINDS.node).list()).items) {
    const name = node.metadata.name ?? '';
    if (node.spec?.podCIDR && !mine.has(name)) holders.set(node.spec.podCIDR, name);
  }
  for (const node of nodes) {
    const cidr = podCidrOfIndex(node.index);
    const holder = holders.get(cidr);
    if (holder === undefined) continue;
    const first = nodes[0]?.index ?? 0;
    throw new Error(
      `node ${node.name} would get pod CIDR ${cidr}, which node ${holder} already has: give each kubelet process its own range of node indexes (--start-index; this one takes ${first}–${first + nodes.length - 1})`,
    );
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
