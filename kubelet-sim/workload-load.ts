/**
 * The load model: a workload (a Deployment, or any controller at the top of a pod's owner
 * chain) declares the total demand of the service it runs with annotations —
 *
 *   kubesim.io/load-cpu: 1400m      kubesim.io/load-memory: 512Mi
 *
 * — and the demand is divided evenly over the workload's serving pods, cluster-wide, as a
 * load balancer spreads requests over ready endpoints: scaling out lowers each pod's share.
 * `kubesim load` sets the annotations. Pure; the listers it reads are passed in.
 *
 * The workload of a pod is the root of its controller chain as far as the kubelet can
 * follow it (pod → ReplicaSet → Deployment, through ownerReferences with uid checks). Only
 * the root's annotations count: the Deployment controller copies a Deployment's annotations
 * onto its ReplicaSets and never removes them, so a copy left behind after `kubesim load
 * --off` must not keep the load alive. A pod without a controller has no workload.
 */

import type { Pod } from '../apiserver/api/core/pod.js';
import { isPodReady } from '../apiserver/api/core/pod-conditions.js';
import { controllerRefOf } from '../apiserver/api/machinery/owner-references.js';
import { tryParseQuantity } from '../apiserver/api/quantity.js';
import type { KubeObject } from '../apiserver/api/resource-definition.js';
import type { DeepReadonly, Lister } from '../controllers/runtime/types.js';
import type { Usage } from './usage.js';

/** LOAD_CPU_ANNOTATION holds a workload's total CPU demand (a quantity such as 1400m). */
export const LOAD_CPU_ANNOTATION = 'kubesim.io/load-cpu';

/** LOAD_MEMORY_ANNOTATION holds a workload's total memory demand (a quantity such as 512Mi). */
export const LOAD_MEMORY_ANNOTATION = 'kubesim.io/load-memory';

/** MAX_OWNER_DEPTH stops a walk up a (corrupt) cyclic owner chain. */
const MAX_OWNER_DEPTH = 8;

type ReadonlyObject = DeepReadonly<KubeObject>;

/** OwnerLookup finds a controller owner in the kubelet's caches; undefined when the kind is
 * not cached, the object is gone, or its uid differs from the reference's. */
export type OwnerLookup = (namespace: string, owner: { apiVersion: string; kind: string; name: string; uid: string }) => ReadonlyObject | undefined;

/** ownerLookupFrom builds an OwnerLookup over listers keyed by `apiVersion/kind` (`apps/v1/ReplicaSet`). */
export function ownerLookupFrom(listers: Readonly<Record<string, Lister<KubeObject>>>): OwnerLookup {
  return (namespace, owner) => {
    const found = listers[`${owner.apiVersion}/${owner.kind}`]?.get(namespace, owner.name);
    return found && found.metadata.uid === owner.uid ? found : undefined;
  };
}

/** workloadOf is the root of the object's controller chain, or undefined when it has no
 * controller the lookup knows. */
export function workloadOf(object: ReadonlyObject, lookup: OwnerLookup): ReadonlyObject | undefined {
  let root: ReadonlyObject | undefined;
  let current = object;
  for (let depth = 0; depth < MAX_OWNER_DEPTH; depth++) {
    const ref = controllerRefOf(current);
    const owner = ref && lookup(object.metadata.namespace ?? '', ref);
    if (!owner) break;
    root = current = owner;
  }
  return root;
}

/** ParsedLoad is a workload's demand (each part absent when not declared) and the
 * complaints about annotations that could not be read (those parts are ignored). */
export interface ParsedLoad {
  demand: Partial<Usage>;
  problems: string[];
}

/** parseLoad reads the load annotations. Never throws. */
export function parseLoad(annotations: Readonly<Record<string, string>> | undefined): ParsedLoad {
  const demand: Partial<Usage> = {};
  const problems: string[] = [];
  const read = (key: string, scale: 'milli' | 'unit'): number | undefined => {
    const text = annotations?.[key];
    if (text === undefined) return undefined;
    const quantity = tryParseQuantity(text.trim());
    if (quantity && quantity.sign() >= 0) return scale === 'milli' ? quantity.milliValue() : quantity.value();
    problems.push(`${key}: ${JSON.stringify(text)} must be a non-negative quantity such as ${scale === 'milli' ? '1400m' : '512Mi'}`);
    return undefined;
  };
  const cpu = read(LOAD_CPU_ANNOTATION, 'milli');
  const memory = read(LOAD_MEMORY_ANNOTATION, 'unit');
  if (cpu !== undefined) demand.cpuMillis = cpu;
  if (memory !== undefined) demand.memoryBytes = memory;
  return { demand, problems };
}

/** isServing: the pod takes traffic — Running, Ready, not terminating — like an endpoint a
 * Service would route to. */
export function isServing(pod: DeepReadonly<Pod>): boolean {
  if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Running') return false;
  return isPodReady(pod);
}

/** LoadShares is each serving pod's share (by pod uid), and the load annotations that could
 * not be read (by workload uid). */
export interface LoadShares {
  byPodUid: Map<string, Partial<Usage>>;
  problems: Map<string, { workload: string; problems: string[] }>;
}

/**
 * loadShares divides each workload's demand evenly over its serving pods among `pods` (all
 * bound pods of the cluster, so pods on other kubelets count too). Pods of workloads
 * without load, and pods not serving, get no share.
 */
export function loadShares(pods: readonly DeepReadonly<Pod>[], lookup: OwnerLookup): LoadShares {
  const groups = new Map<string, { demand: Partial<Usage>; pods: string[] }>();
  const problems = new Map<string, { workload: string; problems: string[] }>();
  for (const pod of pods) {
    if (!isServing(pod)) continue;
    const workload = workloadOf(pod as ReadonlyObject, lookup);
    const uid = workload?.metadata.uid;
    if (!workload || !uid || !pod.metadata.uid) continue;
    let group = groups.get(uid);
    if (!group) {
      const parsed = parseLoad(workload.metadata.annotations);
      if (parsed.problems.length > 0) problems.set(uid, { workload: describe(workload), problems: parsed.problems });
      groups.set(uid, (group = { demand: parsed.demand, pods: [] }));
    }
    group.pods.push(pod.metadata.uid);
  }
  const byPodUid = new Map<string, Partial<Usage>>();
  for (const { demand, pods: members } of groups.values()) {
    if (demand.cpuMillis === undefined && demand.memoryBytes === undefined) continue;
    const share = divide(demand, members.length);
    for (const uid of members) byPodUid.set(uid, share);
  }
  return { byPodUid, problems };
}

function divide(demand: Partial<Usage>, count: number): Partial<Usage> {
  const share: Partial<Usage> = {};
  if (demand.cpuMillis !== undefined) share.cpuMillis = demand.cpuMillis / count;
  if (demand.memoryBytes !== undefined) share.memoryBytes = demand.memoryBytes / count;
  return share;
}

function describe(object: ReadonlyObject): string {
  return `${object.kind ?? 'object'} ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}
