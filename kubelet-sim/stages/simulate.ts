/**
 * simulate runs the stage engine on one pod without a cluster: evaluate, jump to the due
 * time, apply, repeat — the node agent's loop with the I/O and the waiting taken out. Golden
 * tests and the docs' examples use it. Pure.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { PodBehaviour } from '../behaviour.js';
import { applyPlan, emptyMemory, evaluate } from './engine.js';
import type { Stage } from './stage.js';
import type { NodeFacts, PodMemory, StageResult } from './types.js';

/** SimulationOptions: the pod and node, when to start, and when to stop. */
export interface SimulationOptions {
  pod: Pod;
  node: NodeFacts;
  behaviour: PodBehaviour;
  startMs: number;
  /** Stop after this many applied transitions. */
  maxSteps: number;
  /** Stop before a transition due later than this (cluster time). */
  untilMs?: number;
  stages?: readonly Stage[];
}

/** SimulationStep is one applied transition. */
export interface SimulationStep {
  atMs: number;
  stage: string;
  target: string;
  result: StageResult;
  /** The pod after the step (status replaced), or undefined once deleted. */
  pod: Pod | undefined;
}

/** simulate returns the transitions in order; it stops at maxSteps, untilMs, a deletion, or
 * when no stage applies any more. */
export function simulate(options: SimulationOptions): SimulationStep[] {
  const steps: SimulationStep[] = [];
  let pod: Pod | undefined = options.pod;
  let memory: PodMemory = emptyMemory();
  let nowMs = options.startMs;
  while (pod && steps.length < options.maxSteps) {
    const input = { pod, node: options.node, behaviour: options.behaviour, stages: options.stages };
    const evaluation = evaluate({ ...input, nowMs, memory });
    memory = evaluation.memory;
    const plan = evaluation.plan;
    if (!plan) break;
    if (options.untilMs !== undefined && nowMs + plan.delayMs > options.untilMs) break;
    nowMs += plan.delayMs;
    // Re-evaluate at the due time, as the agent does when its timer fires.
    const due = evaluate({ ...input, nowMs, memory });
    if (!due.plan || due.plan.delayMs > 0) continue;
    const result = applyPlan({ ...input, nowMs, memory: due.memory }, due.plan);
    memory = result.memory;
    pod = result.delete ? undefined : { ...pod, status: result.status };
    steps.push({ atMs: nowMs, stage: due.plan.stage, target: due.plan.target, result, pod });
  }
  return steps;
}
