/**
 * The pod workers (the kubelet's pod workers and status manager in one Reconciler): for
 * each pod bound to one of this process's nodes, evaluate the stage engine, wait out the
 * plan's delay (requeueAfterMs), apply it, and write the result through pods/status (PUT
 * with the resourceVersion read; a 409 means re-read and re-plan) — or, for a deleted pod
 * whose containers stopped, confirm the deletion with gracePeriodSeconds 0 and a uid
 * precondition.
 *
 * Status writes are coalesced, as the kubelet's status manager sends only the latest status:
 * transitions due at the same moment (a container started and at once ready, an exit and
 * its CrashLoopBackOff, a kubelet catching up after a stall) are applied one after the other
 * in memory and written once, with the last state; their events and log changes are
 * reported after that write, in order. Each state keeps the timestamps it was given.
 *
 * Per-pod state (the engine's memory, the reserved pod IP, the last status written) lives
 * here and is dropped when the pod disappears. Nothing here is needed for correctness after
 * a restart: the engine falls back to the status timestamps.
 */
import { isConflict, isNotFound } from '../apiserver/api/api-error.js';
import type { Container } from '../apiserver/api/core/container.js';
import type { Pod } from '../apiserver/api/core/pod.js';
import type { PodSpec } from '../apiserver/api/core/pod-spec.js';
import { allContainers } from '../apiserver/api/core/pod-spec-defaults.js';
import { allContainerStatuses } from '../apiserver/api/core/pod-status.js';
import { type Cause, currentCause, runWithCause } from '../apiserver/api/machinery/cause.js';
import type { Clock, DeepReadonly, EventRecorder, Lister, Logger, Reconciler, Request, ResourceClient, Result } from '../controllers/runtime/types.js';
import { type PodBehaviour, parseBehaviour } from './behaviour.js';
import type { ContainerLogStore } from './logs/container-log-store.js';
import type { MainProcesses } from './main-process/main-processes.js';
import { runsInUserland } from './main-process/runs-in-userland.js';
import type { PodIpAllocator } from './pod-ip-allocator.js';
import type { PodProbeResults } from './probes/results.js';
import { applyPlan, emptyMemory, evaluate } from './stages/engine.js';
import type { Stage } from './stages/stage.js';
import type { PodMemory, StageInput, StageResult } from './stages/types.js';

/** PodHost is what the pod workers need from a node agent. */
export interface PodHost {
  readonly name: string;
  readonly hostIP: string;
  readonly ips: PodIpAllocator;
  readonly recorder: EventRecorder | undefined;
  isPoweredOn(): boolean;
}

/** PodWorkersOptions wires the pod workers. */
export interface PodWorkersOptions {
  pods: ResourceClient<Pod>;
  /** The pods client of one node, when each node authenticates as itself (a kubelet may write
   * only its own pods' status); `pods` for every node when absent. */
  podsOn?: (nodeName: string) => ResourceClient<Pod>;
  lister: Lister<Pod>;
  /** The nodes this process simulates, by name. */
  hosts: ReadonlyMap<string, PodHost>;
  logs: ContainerLogStore;
  clock: Clock;
  logger: Logger;
  stages?: readonly Stage[];
  /** The prober's results by pod uid (kubelet-sim/probes); without it probes only delay readiness. */
  probes?: { resultsFor(podUid: string): PodProbeResults | undefined };
  /** Runs the main processes of containers that run in the userland (main-process/). */
  mainProcesses?: MainProcesses;
}

/** NO_PROBE_RESULTS: a pod the prober has said nothing about (shared, never written). */
const NO_PROBE_RESULTS: PodProbeResults = Object.freeze({});

/** MAX_TRANSITIONS_PER_SYNC bounds one reconcile, so one busy pod cannot hog a worker. */
const MAX_TRANSITIONS_PER_SYNC = 10;

interface PodWorker {
  uid: string;
  host: PodHost;
  podIP: string;
  memory: PodMemory;
  /** Invalid annotations were already logged for this pod. */
  warned?: boolean;
  /** The pod as our last write returned it (newer than the cache until the watch catches up). */
  lastWritten?: Pod;
}

/** Written is the outcome of a status write: the pod to go on with, or gone. */
type Written = { kind: 'idle' } | { kind: 'again'; pod: DeepReadonly<Pod> };

/** Due is a transition applied in memory: the pod with its new status, not yet written. */
interface Due {
  result: StageResult;
  behaviour: PodBehaviour;
}

/** Decision is what one evaluation of a pod asks for. */
type Decision = { kind: 'idle' } | { kind: 'wait'; delayMs: number } | ({ kind: 'apply' } & Due);

/** Unwritten is the coalesced transitions since the last write, and the memory to return to
 * when their write is refused. */
interface Unwritten {
  memoryBefore: PodMemory;
  transitions: Due[];
}

/** resourceVersionOf reads kubesim's resourceVersion as a number. NOTE: resourceVersions are
 * opaque in Kubernetes; comparing them is only an optimisation here (a wrong guess costs a
 * 409 and a re-read, never a wrong write). */
const resourceVersionOf = (pod: DeepReadonly<Pod>) => Number(pod.metadata.resourceVersion ?? 0) || 0;

/** nodeCause is the pod controller's cause as the node's kubelet: `kubelet/<node>`, and a
 * requeue after a delay is a stage coming due (docs/history.md). */
export function nodeCause(cause: Cause, nodeName: string): Cause {
  const { trigger } = cause;
  const isStageDue = trigger.kind === 'requeue' && trigger.reason === 'after';
  return {
    ...cause,
    controller: `kubelet/${nodeName}`,
    trigger: isStageDue ? { kind: 'stage', ...(trigger.origin ? { origin: trigger.origin } : {}) } : trigger,
  };
}

/** createPodWorkers returns the Reconciler behind the kubelet's pod controller. */
export function createPodWorkers(options: PodWorkersOptions): Reconciler & { forgetAll(): void } {
  return new PodWorkers(options);
}

class PodWorkers implements Reconciler {
  private readonly workers = new Map<string, PodWorker>();

  constructor(private readonly options: PodWorkersOptions) {}

  async reconcile({ namespace, name }: Request): Promise<Result> {
    const key = `${namespace}/${name}`;
    const cached = this.options.lister.get(namespace, name);
    const host = cached ? this.options.hosts.get(cached.spec.nodeName ?? '') : undefined;
    if (!cached || !host) {
      this.forget(key);
      return {};
    }
    // A stopped node reports nothing; starting it again requeues its pods.
    if (!host.isPoweredOn()) return {};
    const cause = currentCause();
    if (!cause) return this.sync(key, cached, host);
    return runWithCause(nodeCause(cause, host.name), () => this.sync(key, cached, host));
  }

  forgetAll(): void {
    for (const key of [...this.workers.keys()]) this.forget(key);
  }

  private async sync(key: string, cached: DeepReadonly<Pod>, host: PodHost): Promise<Result> {
    const worker = this.workerFor(key, cached, host);
    let pod = this.freshest(worker, cached);
    let unwritten: Unwritten | undefined;
    for (let i = 0; i < MAX_TRANSITIONS_PER_SYNC; i++) {
      const decision = this.decide(key, worker, pod);
      if (decision.kind === 'apply' && !decision.result.delete) {
        unwritten ??= { memoryBefore: worker.memory, transitions: [] };
        unwritten.transitions.push(decision);
        worker.memory = decision.result.memory;
        pod = { ...pod, status: decision.result.status } as DeepReadonly<Pod>;
        continue;
      }
      // Nothing else is due this moment (or a delete is): write what is pending first.
      if (unwritten) {
        const step = await this.writeStatus(key, worker, pod, unwritten);
        unwritten = undefined;
        if (step.kind !== 'again') return {};
        pod = step.pod;
        // Re-decide on what the server returned (a 409 re-read it; nothing is lost otherwise).
        continue;
      }
      if (decision.kind === 'idle') return {};
      if (decision.kind === 'wait') return { requeueAfterMs: decision.delayMs };
      await this.confirmDeletion(key, worker, pod, decision.result, decision.behaviour);
      return {};
    }
    if (unwritten) await this.writeStatus(key, worker, pod, unwritten);
    return { requeueAfterMs: 1 };
  }

  /** decide evaluates the pod once and, when a transition is due now, applies it in memory. */
  private decide(key: string, worker: PodWorker, pod: DeepReadonly<Pod>): Decision {
    const { behaviour, problems } = parseBehaviour(pod);
    if (problems.length > 0 && !worker.warned) {
      worker.warned = true;
      this.options.logger.warn({ pod: key, problems }, 'ignoring invalid kubesim.io annotations');
    }
    const input: StageInput = {
      pod,
      node: { name: worker.host.name, hostIP: worker.host.hostIP, podIP: worker.podIP },
      nowMs: this.options.clock.now(),
      behaviour,
      memory: worker.memory,
      stages: this.options.stages,
      probes: this.options.probes ? (this.options.probes.resultsFor(worker.uid) ?? NO_PROBE_RESULTS) : undefined,
      processExits: this.options.mainProcesses?.exitsOf(worker.uid),
    };
    const evaluation = evaluate(input);
    worker.memory = evaluation.memory;
    const plan = evaluation.plan;
    if (!plan) return { kind: 'idle' };
    if (plan.delayMs > 0) return { kind: 'wait', delayMs: plan.delayMs };
    const result = applyPlan({ ...input, memory: worker.memory }, plan);
    this.options.logger.debug({ pod: key, stage: plan.stage, target: plan.target }, 'pod stage');
    return { kind: 'apply', result, behaviour };
  }

  private podsOf(pod: DeepReadonly<Pod>): ResourceClient<Pod> {
    return this.options.podsOn?.(pod.spec.nodeName ?? '') ?? this.options.pods;
  }

  /** writeStatus writes `pod` (the last of the coalesced transitions) in one PUT. */
  private async writeStatus(key: string, worker: PodWorker, pod: DeepReadonly<Pod>, unwritten: Unwritten): Promise<Written> {
    const pods = this.podsOf(pod);
    let written: Pod;
    try {
      // The client only serialises its argument: no copy needed.
      written = await pods.updateStatus(pod as Pod);
    } catch (err) {
      // Not written: the transitions will be planned again from what the server has.
      worker.memory = unwritten.memoryBefore;
      if (isNotFound(err)) return this.gone(key);
      if (!isConflict(err)) throw err;
      // Someone else wrote the pod (or the cache was behind): re-read and plan again.
      return { kind: 'again', pod: await pods.get(pod.metadata.namespace ?? '', pod.metadata.name ?? '') };
    }
    worker.lastWritten = written;
    for (const { result, behaviour } of unwritten.transitions) this.report(worker, written, result, behaviour);
    return { kind: 'again', pod: written };
  }

  private async confirmDeletion(key: string, worker: PodWorker, pod: DeepReadonly<Pod>, result: StageResult, behaviour: PodBehaviour): Promise<void> {
    const { namespace = '', name = '', uid } = pod.metadata;
    try {
      await this.podsOf(pod).delete(namespace, name, { gracePeriodSeconds: 0, preconditions: uid ? { uid } : undefined });
    } catch (err) {
      // Gone already, or a new pod of the same name (uid precondition): nothing left to do.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
    this.report(worker, pod, result, behaviour);
    this.forget(key);
  }

  /** report passes a written transition on to the log simulation and the event recorder. */
  private report(worker: PodWorker, pod: DeepReadonly<Pod>, result: StageResult, behaviour: PodBehaviour): void {
    const nowMs = this.options.clock.now();
    for (const change of result.changes) {
      const key = { podUid: worker.uid, container: change.container };
      if (change.change === 'exited') {
        this.options.mainProcesses?.stop(worker.uid, change.container);
        this.options.logs.exited(key, { atMs: nowMs, exitCode: change.exitCode ?? 0, reason: change.reason ?? 'exited' });
        continue;
      }
      // Debug (ephemeral) containers run their process too: `kubectl debug -it` attaches to it.
      const spec = allContainers(pod.spec as PodSpec).find((c) => c.name === change.container) as DeepReadonly<Container> | undefined;
      const status = allContainerStatuses(pod.status).find((c) => c.name === change.container);
      const restartCount = status?.restartCount ?? 0;
      const process = !!this.options.mainProcesses && !!spec && runsInUserland(pod, spec);
      this.options.logs.started(key, { image: spec?.image ?? '', atMs: nowMs, intervalMs: behaviour.logIntervalMs, restartCount, process });
      if (process) this.options.mainProcesses?.start(pod, change.container, restartCount);
    }
    for (const event of result.events) worker.host.recorder?.event(pod, event.type, event.reason, event.message);
  }

  private gone(key: string): Written {
    this.forget(key);
    return { kind: 'idle' };
  }

  /** workerFor returns the pod's worker, starting afresh for a new pod (or a new uid). */
  private workerFor(key: string, pod: DeepReadonly<Pod>, host: PodHost): PodWorker {
    const uid = pod.metadata.uid ?? '';
    const known = this.workers.get(key);
    if (known?.uid === uid) return known;
    if (known) this.forget(key);
    const worker: PodWorker = { uid, host, podIP: host.ips.allocate(key, pod.status?.podIP), memory: emptyMemory() };
    this.workers.set(key, worker);
    return worker;
  }

  /** freshest is our last write when the cache has not caught up with it yet. */
  private freshest(worker: PodWorker, cached: DeepReadonly<Pod>): DeepReadonly<Pod> {
    const written = worker.lastWritten;
    if (written && resourceVersionOf(written) > resourceVersionOf(cached)) return written;
    delete worker.lastWritten;
    return cached;
  }

  private forget(key: string): void {
    const worker = this.workers.get(key);
    if (!worker) return;
    this.workers.delete(key);
    worker.host.ips.release(key);
    this.options.logs.forgetPod(worker.uid, this.options.clock.now());
  }
}
