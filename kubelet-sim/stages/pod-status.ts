/**
 * Pod-level status from container statuses, as the kubelet's status generation does: the
 * phase (its getPhase rules) and the PodReadyToStartContainers / Initialized / Ready /
 * ContainersReady conditions, keeping PodScheduled and any condition written by others.
 * Pure.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { ContainerStatus, PodCondition, PodPhase, PodStatus } from '../../apiserver/api/core/pod-status.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';

/** KUBELET_CONDITIONS are the condition types the kubelet owns, in the order it writes them. */
export const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady'] as const;

type Statuses = readonly DeepReadonly<ContainerStatus>[];

/** podPhase applies the kubelet's getPhase rules to the container statuses. */
export function podPhase(pod: DeepReadonly<Pod>, init: Statuses, app: Statuses): PodPhase {
  if (!initDone(pod, init)) return 'Pending';
  let waiting = 0;
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const name of pod.spec.containers.map((c) => c.name)) {
    const state = app.find((s) => s.name === name);
    if (state?.state?.running) running++;
    else if (state?.state?.terminated) {
      stopped++;
      if (state.state.terminated.exitCode === 0) succeeded++;
    } else if (state?.lastState?.terminated)
      stopped++; // waiting to restart after a run
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  return policy === 'Never' ? 'Failed' : 'Running';
}

/** initDone: every plain init container exited 0 and every sidecar started. */
function initDone(pod: DeepReadonly<Pod>, init: Statuses): boolean {
  return (pod.spec.initContainers ?? []).every((spec) => isInitComplete(spec, init));
}

function isInitComplete(spec: DeepReadonly<Pod>['spec']['containers'][number], init: Statuses): boolean {
  const status = init.find((s) => s.name === spec.name);
  return spec.restartPolicy === 'Always' ? !!status?.started : status?.state?.terminated?.exitCode === 0;
}

interface ConditionFacts {
  status: 'True' | 'False';
  reason?: string;
  message?: string;
}

/** kubeletConditions computes the kubelet-owned conditions (without transition times). */
function kubeletConditions(pod: DeepReadonly<Pod>, status: PodStatus, phase: PodPhase): Record<(typeof KUBELET_CONDITIONS)[number], ConditionFacts> {
  const init = status.initContainerStatuses ?? [];
  const app = status.containerStatuses ?? [];
  const incomplete = (pod.spec.initContainers ?? []).filter((spec) => !isInitComplete(spec, init));
  const unready = pod.spec.containers.filter((spec) => !app.find((s) => s.name === spec.name)?.ready).map((spec) => spec.name);
  const initialized: ConditionFacts =
    incomplete.length === 0
      ? { status: 'True' }
      : notTrue(
          'ContainersNotInitialized',
          'incomplete',
          incomplete.map((c) => c.name),
        );
  let containersReady: ConditionFacts = unready.length === 0 ? { status: 'True' } : notTrue('ContainersNotReady', 'unready', unready);
  if (phase === 'Succeeded') containersReady = { status: 'False', reason: 'PodCompleted' };
  return {
    PodReadyToStartContainers: { status: status.podIP ? 'True' : 'False' },
    Initialized: initialized,
    Ready: containersReady.status === 'True' ? readinessGatesFacts(pod, status) : containersReady,
    ContainersReady: containersReady,
  };
}

/** readinessGatesFacts: a pod with readiness gates is Ready only once every gate's condition
 * (written by some other controller) is True. */
function readinessGatesFacts(pod: DeepReadonly<Pod>, status: PodStatus): ConditionFacts {
  for (const gate of pod.spec.readinessGates ?? []) {
    const condition = status.conditions?.find((c) => c.type === gate.conditionType);
    if (!condition)
      return {
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: `corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`,
      };
    if (condition.status !== 'True') {
      return {
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${condition.status}`,
      };
    }
  }
  return { status: 'True' };
}

function notTrue(reason: string, what: string, names: string[]): ConditionFacts {
  return { status: 'False', reason, message: `containers with ${what} status: [${names.join(' ')}]` };
}

/** isPodLevelStatusCurrent: the pod's phase and kubelet-owned condition statuses are what its
 * container statuses imply. */
export function isPodLevelStatusCurrent(pod: DeepReadonly<Pod>): boolean {
  const status = (pod.status ?? {}) as PodStatus;
  const phase = podPhase(pod, status.initContainerStatuses ?? [], status.containerStatuses ?? []);
  if (phase !== status.phase) return false;
  const facts = kubeletConditions(pod, status, phase);
  return KUBELET_CONDITIONS.every((type) => (status.conditions ?? []).find((c) => c.type === type)?.status === facts[type].status);
}

/**
 * withPodLevelStatus returns `status` with phase and conditions derived from its container
 * statuses at nowMs. A condition keeps its lastTransitionTime while its status is unchanged;
 * PodScheduled and conditions of other writers are kept as they are, after the kubelet's.
 */
export function withPodLevelStatus(pod: DeepReadonly<Pod>, status: PodStatus, nowMs: number): PodStatus {
  const phase = podPhase(pod, status.initContainerStatuses ?? [], status.containerStatuses ?? []);
  const facts = kubeletConditions(pod, status, phase);
  const previous = status.conditions ?? [];
  const owned = KUBELET_CONDITIONS.map((type): PodCondition => {
    const old = previous.find((c) => c.type === type);
    const fact = facts[type];
    const condition: PodCondition = {
      type,
      status: fact.status,
      lastTransitionTime: old?.status === fact.status && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(nowMs),
    };
    if (fact.reason) condition.reason = fact.reason;
    if (fact.message) condition.message = fact.message;
    return condition;
  });
  const others = previous.filter((c) => !(KUBELET_CONDITIONS as readonly string[]).includes(c.type));
  return { ...status, phase, conditions: [...owned, ...others] };
}
