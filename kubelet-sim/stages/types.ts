/**
 * What the stage engine reads and returns. Everything here is plain data, so a golden test
 * can write it as YAML.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { PodStatus } from '../../apiserver/api/core/pod-status.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import type { PodBehaviour } from '../behaviour.js';
import type { PodProbeResults } from '../probes/results.js';
import type { Action, Stage } from './stage.js';

/** NodeFacts is what the engine needs to know about the node running the pod. */
export interface NodeFacts {
  name: string;
  hostIP: string;
  /** The address reserved for this pod in the node's pod CIDR. */
  podIP: string;
}

/** TargetMemory records when a target (the pod or a container) entered its current state:
 * `signature` names the state, `sinceMs` is cluster time. */
export interface TargetMemory {
  signature: string;
  sinceMs: number;
}

/** BackoffEntry is one kubelet backoff record (client-go flowcontrol.Backoff's entry). */
export interface BackoffEntry {
  durationMs: number;
  lastUpdateMs: number;
}

/**
 * PodMemory is what the simulated runtime knows about a pod beyond its API status — the
 * part a real kubelet keeps in memory (container start times with sub-second precision,
 * backoff records). It is lost when kubelet-sim restarts, as a kubelet's is; the engine then
 * falls back to the status timestamps.
 */
export interface PodMemory {
  /** By target key: `pod`, `init:<name>` or `app:<name>`. */
  targets: Record<string, TargetMemory>;
  /** By `crash:<target key>` / `pull:<target key>`. */
  backoff: Record<string, BackoffEntry>;
  /** Containers being stopped for a failed liveness or startup probe, by target key. */
  kills?: Record<string, ProbeKill>;
}

/** ProbeKill: the kubelet sent SIGTERM at atMs; the container exits with exitCode stopMs later. */
export interface ProbeKill {
  atMs: number;
  stopMs: number;
  exitCode: number;
  probe: 'liveness' | 'startup';
}

/** StageInput is everything one evaluation depends on. */
export interface StageInput {
  pod: DeepReadonly<Pod>;
  node: NodeFacts;
  nowMs: number;
  behaviour: PodBehaviour;
  memory: PodMemory;
  /** The stage table; DEFAULT_POD_STAGES when absent. */
  stages?: readonly Stage[];
  /** The prober's results for the pod's containers (kubelet-sim/probes). Absent: no prober
   * runs, and readiness follows readinessProbe.initialDelaySeconds alone. */
  probes?: PodProbeResults;
  /** How the main processes run in the userland ended, by container name (main-process/). */
  processExits?: Readonly<Record<string, ProcessExit>>;
}

/** ProcessExit: a container's main process (run `restartCount`) ended at atMs with exitCode;
 * `reason` StartError when it could not start (message: the runtime's error). */
export interface ProcessExit {
  restartCount: number;
  exitCode: number;
  atMs: number;
  reason?: 'StartError';
  message?: string;
}

/** StagePlan is the next transition: which stage, on which target, how long from now. */
export interface StagePlan {
  stage: string;
  /** Target key: `pod`, `init:<name>` or `app:<name>`. */
  target: string;
  action: Action;
  delayMs: number;
}

/** StageEvent is a core/v1 Event the kubelet would record about the pod. */
export interface StageEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** ContainerChange tells the log simulation that a container instance began or ended. */
export interface ContainerChange {
  container: string;
  change: 'started' | 'exited';
  exitCode?: number;
  /** Why it exited, for the last log line. */
  reason?: string;
}

/** StageResult is the outcome of applying a due plan. */
export interface StageResult {
  /** The status to write (PUT pods/status), or undefined when the action deletes the pod. */
  status?: PodStatus;
  /** Delete the pod (gracePeriodSeconds 0, uid precondition). */
  delete?: boolean;
  memory: PodMemory;
  events: StageEvent[];
  changes: ContainerChange[];
}
