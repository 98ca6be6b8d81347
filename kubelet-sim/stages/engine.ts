/**
 * The stage engine: pure functions from (pod, node, now, behaviour, memory) to the next
 * transition and its outcome. No I/O, no clock: the caller (the node agent, a golden test,
 * simulate.ts) decides when to call again.
 *
 *   evaluate(input)  → { memory, plan? }   observe the pod, pick the stage due first
 *   applyPlan(input, plan) → StageResult   perform a due plan (delayMs 0) at input.nowMs
 *
 * Timing: every stage waits from the moment its target entered its current state. The
 * engine learns that moment by observation (a state signature it has not seen starts now)
 * or, after a kubelet restart, from the status timestamps; the caller keeps the returned
 * memory and passes it back. Jitter is a stable hash of the pod, target and state, so
 * evaluating twice gives the same answer.
 */

import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import { ACTIONS, type Draft } from './actions.js';
import {
  type ContainerRef,
  containerPhase,
  containerRefs,
  containerSignature,
  containerSinceFallbackMs,
  POD_TARGET,
  podSignature,
  podSinceFallbackMs,
  podStagePhase,
} from './classify.js';
import { clockStartMs, createContext, type EvalContext, sinceMs } from './context.js';
import { DEFAULT_POD_STAGES } from './default-pod-stages.js';
import { DELAYS } from './delays.js';
import { GUARDS } from './guards.js';
import { withPodLevelStatus } from './pod-status.js';
import { type ContainerStage, PodStagePhase, type Stage } from './stage.js';
import type { PodMemory, StageInput, StagePlan, StageResult, TargetMemory } from './types.js';

/** Evaluation is the observed memory (keep it) and the next plan, if anything is to happen. */
export interface Evaluation {
  memory: PodMemory;
  plan?: StagePlan;
}

/** emptyMemory is the memory of a pod never seen before. */
export function emptyMemory(): PodMemory {
  return { targets: {}, backoff: {} };
}

/**
 * observe returns `memory` updated for the pod's current states: a target whose signature
 * changed is stamped nowMs; a target seen for the first time is stamped with its status
 * timestamp when `trustStatus` and it has one, else nowMs. Targets the pod no longer has are
 * dropped.
 */
export function observe(pod: DeepReadonly<Pod>, memory: PodMemory, nowMs: number, trustStatus = true): PodMemory {
  const targets: Record<string, TargetMemory> = {};
  const stamp = (key: string, signature: string, fallbackMs: number | undefined) => {
    const known = memory.targets[key];
    if (known?.signature === signature) targets[key] = known;
    // A change we saw happen started about now; only a target we never saw (a restarted
    // kubelet) is dated from the status's own, seconds-precision timestamps.
    else targets[key] = { signature, sinceMs: (trustStatus && !known ? fallbackMs : undefined) ?? nowMs };
  };
  stamp(POD_TARGET, podSignature(pod), podSinceFallbackMs(pod));
  for (const ref of containerRefs(pod)) {
    stamp(ref.key, containerSignature(ref.status), containerSinceFallbackMs(ref.status));
  }
  // A probe kill belongs to the container run it stops: it ends when that run's state changes.
  const kills = memory.kills && Object.fromEntries(Object.entries(memory.kills).filter(([key]) => targets[key] === memory.targets[key]));
  return { targets, backoff: { ...memory.backoff }, ...(kills && Object.keys(kills).length > 0 ? { kills } : {}) };
}

/** evaluate observes the pod and returns the plan due first (undefined: nothing to do). */
export function evaluate(input: StageInput): Evaluation {
  const memory = observe(input.pod, input.memory, input.nowMs);
  const ctx = createContext(input, memory);
  let best: { plan: StagePlan; dueMs: number } | undefined;
  for (const candidate of candidates(ctx, input.stages ?? DEFAULT_POD_STAGES)) {
    if (!best || candidate.dueMs < best.dueMs) best = candidate;
  }
  if (best) best.plan.delayMs = Math.max(0, best.dueMs - input.nowMs);
  return best ? { memory, plan: best.plan } : { memory };
}

/** candidates yields every (stage, target) pair that applies now, with its due time. */
function* candidates(ctx: EvalContext, stages: readonly Stage[]): Generator<{ plan: StagePlan; dueMs: number }> {
  const podPhase = podStagePhase(ctx.input.pod);
  for (const stage of stages) {
    if (stage.target === 'pod') {
      if (!stage.when.includes(podPhase)) continue;
      yield candidate(stage, POD_TARGET, sinceMs(ctx, POD_TARGET) + DELAYS[stage.delay](ctx, undefined));
      continue;
    }
    // Containers move only in an acknowledged, live pod whose status is consistent.
    if (podPhase !== PodStagePhase.Active) continue;
    for (const ref of ctx.refs) {
      if (!matches(ctx, stage, ref)) continue;
      const jitter = stage.jitterMs * stableFraction(`${ctx.input.pod.metadata.uid}/${ref.key}/${ctx.memory.targets[ref.key]?.signature}/${stage.name}`);
      yield candidate(stage, ref.key, clockStartMs(ctx, ref) + DELAYS[stage.delay](ctx, ref) + Math.round(jitter));
    }
  }
}

function candidate(stage: Stage, target: string, dueMs: number): { plan: StagePlan; dueMs: number } {
  return { plan: { stage: stage.name, target, action: stage.next, delayMs: 0 }, dueMs };
}

function matches(ctx: EvalContext, stage: ContainerStage, ref: ContainerRef): boolean {
  if (!stage.when.includes(containerPhase(ref.status))) return false;
  return stage.if.every((guard) => GUARDS[guard](ctx, ref)) && !stage.unless.some((guard) => GUARDS[guard](ctx, ref));
}

/**
 * applyPlan performs `plan` at input.nowMs on the pod of `input` (whose memory came from
 * evaluate). Returns the full status to write (pod-level phase and conditions recomputed)
 * or a delete, with the memory to keep. Throws if the plan names a target the pod lacks.
 */
export function applyPlan(input: StageInput, plan: StagePlan): StageResult {
  const ctx = createContext(input, input.memory);
  const ref = ctx.refs.find((r) => r.key === plan.target);
  if (plan.target !== POD_TARGET && !ref) throw new Error(`stage ${plan.stage}: pod has no container ${plan.target}`);
  const draft: Draft = {
    status: structuredClone(input.pod.status ?? {}) as Draft['status'],
    memory: structuredClone(input.memory),
    events: [],
    changes: [],
    delete: false,
  };
  ACTIONS[plan.action](ctx, ref, draft);
  if (draft.delete) return { delete: true, memory: draft.memory, events: draft.events, changes: draft.changes };
  const status = withPodLevelStatus(input.pod, draft.status, input.nowMs);
  // What we just wrote started now, to the millisecond: do not fall back to the
  // seconds-precision timestamps in the status.
  const memory = observe({ ...input.pod, status } as DeepReadonly<Pod>, draft.memory, input.nowMs, false);
  return { status, memory, events: draft.events, changes: draft.changes };
}

/** stableFraction hashes text (FNV-1a) to a number in [0, 1). */
export function stableFraction(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 2 ** 32;
}
