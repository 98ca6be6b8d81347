/**
 * The usage model: how much CPU and memory each running container of a simulated pod uses,
 * as the kubelet's resource metrics would report it. Pure; stats-summary.ts feeds it the
 * cluster state and serves the result.
 *
 *   container usage = baseline + share of the workload's load, capped
 *
 * - baseline: `kubesim.io/cpu` / `kubesim.io/memory` on the pod (fixed, per container), or
 *   a small idle default (1–5m CPU, 5–20Mi memory) with a deterministic per-container jitter
 *   so pods differ a little but never change between scrapes;
 * - load: the pod's share of its workload's demand (workload-load.ts), spread over its
 *   running containers by their requests (a container without a request gets none unless no
 *   container has one, then all get equal parts): a service's work lands where its capacity is;
 * - caps: CPU at the container's limit (the CFS quota throttles it) and memory at its limit,
 *   neither above the node's capacity — the bound a real container cannot exceed.
 *
 * CPU is in whole millicores, memory in whole KiB (so quantities print as `12Mi`, `6000Ki`).
 */
import type { Pod } from '../apiserver/api/core/pod.js';
import { tryParseQuantity } from '../apiserver/api/quantity.js';
import type { DeepReadonly } from '../controllers/runtime/types.js';

/** Usage is an amount of CPU (millicores) and memory (bytes). */
export interface Usage {
  cpuMillis: number;
  memoryBytes: number;
}

/** ContainerUsage is one running container's usage. */
export interface ContainerUsage extends Usage {
  name: string;
}

const KI = 1024;
const MI = 1024 * KI;

/** IDLE_USAGE bounds the default baseline of a container without usage annotations. */
export const IDLE_USAGE = Object.freeze({ cpuMillis: { min: 1, max: 5 }, memoryBytes: { min: 5 * MI, max: 20 * MI } });

/** NODE_OVERHEAD bounds what a node uses besides its pods (kubelet, runtime, system daemons). */
export const NODE_OVERHEAD = Object.freeze({ cpuMillis: { min: 60, max: 100 }, memoryBytes: { min: 600 * MI, max: 900 * MI } });

/** PodUsageInput is everything podUsage depends on. */
export interface PodUsageInput {
  pod: DeepReadonly<Pod>;
  /** The pod's fixed per-container usage (its `kubesim.io/cpu` / `kubesim.io/memory`), if any. */
  fixed: { cpu?: string | undefined; memory?: string | undefined };
  /** The pod's share of its workload's demand; none when it serves no traffic. */
  share?: Partial<Usage>;
  /** The node's capacity: no container uses more. */
  capacity: Usage;
}

/**
 * podUsage computes the usage of each running app container of the pod (containers that are
 * waiting or terminated use nothing and are not listed). Pure and deterministic; never throws
 * (unreadable quantities count as absent).
 */
export function podUsage(input: PodUsageInput): ContainerUsage[] {
  const { pod } = input;
  const running = new Set((pod.status?.containerStatuses ?? []).filter((s) => s.state?.running).map((s) => s.name));
  const containers = pod.spec.containers.filter((c) => running.has(c.name));
  const cpuShares = spread(
    input.share?.cpuMillis ?? 0,
    containers.map((c) => amountOf(c.resources?.requests?.['cpu'], 'milli') ?? 0),
  );
  const memoryShares = spread(
    input.share?.memoryBytes ?? 0,
    containers.map((c) => amountOf(c.resources?.requests?.['memory'], 'unit') ?? 0),
  );
  const seed = pod.metadata.uid ?? `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
  return containers.map((container, i) => {
    const limits = container.resources?.limits;
    const cpu = baseline(input.fixed.cpu, 'milli', IDLE_USAGE.cpuMillis, `${seed}/${container.name}/cpu`) + (cpuShares[i] ?? 0);
    const memory = baseline(input.fixed.memory, 'unit', IDLE_USAGE.memoryBytes, `${seed}/${container.name}/memory`) + (memoryShares[i] ?? 0);
    return {
      name: container.name,
      cpuMillis: Math.round(cap(cpu, amountOf(limits?.['cpu'], 'milli'), input.capacity.cpuMillis)),
      memoryBytes: Math.round(cap(memory, amountOf(limits?.['memory'], 'unit'), input.capacity.memoryBytes) / KI) * KI,
    };
  });
}

/**
 * nodeUsage is a node's usage: its pods' containers plus the system overhead (deterministic
 * per node name, within NODE_OVERHEAD), never above the node's capacity.
 */
export function nodeUsage(nodeName: string, containers: readonly Usage[], capacity: Usage): Usage {
  const sum = (pick: (u: Usage) => number) => containers.reduce((total, u) => total + pick(u), 0);
  const cpu = sum((u) => u.cpuMillis) + between(NODE_OVERHEAD.cpuMillis, jitter(`${nodeName}/cpu`));
  const memory = sum((u) => u.memoryBytes) + between(NODE_OVERHEAD.memoryBytes, jitter(`${nodeName}/memory`));
  return { cpuMillis: Math.round(Math.min(cpu, capacity.cpuMillis)), memoryBytes: Math.round(Math.min(memory, capacity.memoryBytes) / KI) * KI };
}

/** spread divides `total` by `weights`; equal parts when no weight is positive. */
export function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + Math.max(0, w), 0);
  if (sum === 0) return weights.map(() => (weights.length === 0 ? 0 : total / weights.length));
  return weights.map((w) => (total * Math.max(0, w)) / sum);
}

/** amountOf reads a quantity as millis (CPU) or units (bytes); undefined when absent or unreadable. */
export function amountOf(text: string | undefined, scale: 'milli' | 'unit'): number | undefined {
  if (text === undefined) return undefined;
  const quantity = tryParseQuantity(text);
  if (!quantity) return undefined;
  return scale === 'milli' ? quantity.milliValue() : quantity.value();
}

function baseline(fixed: string | undefined, scale: 'milli' | 'unit', idle: { min: number; max: number }, seed: string): number {
  return amountOf(fixed, scale) ?? between(idle, jitter(seed));
}

function cap(value: number, limit: number | undefined, capacity: number): number {
  return Math.max(0, Math.min(value, limit ?? capacity, capacity));
}

function between(range: { min: number; max: number }, fraction: number): number {
  return range.min + (range.max - range.min) * fraction;
}

/** jitter maps `seed` to a fraction in [0, 1) (FNV-1a): stable for the same seed, spread
 * across seeds. */
export function jitter(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 2 ** 32;
}
