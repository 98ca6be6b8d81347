/**
 * One probe of one container, as the kubelet's probe worker runs it: a tick every periodSeconds
 * of cluster time (clock timers, never a polling loop), nothing before initialDelaySeconds,
 * liveness and readiness only once the container has started, the startup probe only until it
 * has, and a result published only after successThreshold / failureThreshold equal results in a
 * row. A failed liveness or startup probe puts the worker on hold until a new container runs.
 */
import type { Clock, TimerHandle } from '../../controllers/runtime/types.js';
import type { ProbeKind, ProbeResult } from './results.js';

/** ProbeTiming is a probe's numbers, defaulted as the API server defaults them. */
export interface ProbeTiming {
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}

/** ProbeOutcome is one probe run: its verdict and what the kubelet reports of it. */
export interface ProbeOutcome {
  result: 'success' | 'failure';
  output: string;
  /** See ContainerProbeResults.stopExitCode. */
  stopExitCode?: number;
}

/** ContainerView is the container as the worker sees it at a tick (from the pod's status). */
export type ContainerView =
  | { kind: 'gone' }
  /** The pod finished (Succeeded/Failed) or the worker's container will never run again. */
  | { kind: 'done' }
  | {
      kind: 'present';
      /** Empty until the runtime created the container. */
      containerID: string;
      running: boolean;
      terminated: boolean;
      startedAtMs: number | undefined;
      started: boolean;
      deleting: boolean;
      restartNever: boolean;
    };

export interface ProbeWorkerDeps {
  kind: ProbeKind;
  timing: ProbeTiming;
  clock: Clock;
  view(): ContainerView;
  run(containerID: string): Promise<ProbeOutcome>;
  /** Records the worker's result for a container run. */
  publish(containerID: string, result: ProbeResult, stopExitCode?: number): void;
  /** Forgets the worker's result (the worker stopped, or its container was replaced). */
  forget(containerID: string): void;
  /** A probe run failed: the kubelet's Warning Unhealthy event. */
  failed(output: string): void;
  /** The worker ended by itself (the pod finished or went away). */
  ended(): void;
}

/** INITIAL_RESULTS: what a worker reports for a new container before its first verdict. */
const INITIAL_RESULTS: Record<ProbeKind, ProbeResult> = { Readiness: 'failure', Liveness: 'success', Startup: 'unknown' };

export class ProbeWorker {
  private containerID = '';
  private lastResult: 'success' | 'failure' | undefined;
  private resultRun = 0;
  private onHold = false;
  private busy = false;
  private stopped = false;
  private timer: TimerHandle | undefined;
  private nextTickMs = 0;

  constructor(private readonly deps: ProbeWorkerDeps) {}

  /** start probes now, then every period. */
  start(): void {
    this.nextTickMs = this.deps.clock.now();
    this.tick();
  }

  /** trigger runs a probe now, between ticks (the kubelet's manual trigger); ignored while one runs. */
  trigger(): void {
    if (!this.stopped && !this.busy) void this.probeOnce();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.timer?.cancel();
    if (this.containerID) this.deps.forget(this.containerID);
  }

  private tick(): void {
    if (this.stopped) return;
    const periodMs = this.deps.timing.periodSeconds * 1000;
    this.nextTickMs += periodMs;
    this.timer = this.deps.clock.setTimeout(() => this.tick(), this.nextTickMs - this.deps.clock.now());
    // A probe still running when the next tick comes makes that tick wait its turn (a ticker
    // drops ticks a busy worker cannot take).
    if (!this.busy) void this.probeOnce();
  }

  private async probeOnce(): Promise<void> {
    this.busy = true;
    try {
      if (!(await this.doProbe())) {
        this.stop();
        this.deps.ended();
      }
    } finally {
      this.busy = false;
    }
  }

  /** doProbe is one tick; false when the worker should end. */
  private async doProbe(): Promise<boolean> {
    const { kind, timing } = this.deps;
    const view = this.deps.view();
    if (view.kind !== 'present') return false;
    if (!view.containerID) return true;
    if (view.containerID !== this.containerID) {
      if (this.containerID) this.deps.forget(this.containerID);
      this.containerID = view.containerID;
      this.deps.publish(this.containerID, INITIAL_RESULTS[kind]);
      this.onHold = false;
    }
    if (this.onHold) return true;
    if (!view.running) {
      this.deps.publish(this.containerID, 'failure');
      return !view.terminated || !view.restartNever;
    }
    if (view.deleting && kind !== 'Readiness') {
      // A pod shutting down is not killed for failing a probe.
      this.deps.publish(this.containerID, 'success');
      return false;
    }
    const runningSeconds = Math.trunc((this.deps.clock.now() - (view.startedAtMs ?? this.deps.clock.now())) / 1000);
    if (runningSeconds < timing.initialDelaySeconds) return true;
    // The startup probe runs until the container has started; the others only after.
    if (view.started === (kind === 'Startup')) return true;
    const containerID = this.containerID;
    const outcome = await this.deps.run(containerID);
    if (this.stopped || containerID !== this.containerID) return true;
    if (outcome.result === 'failure') this.deps.failed(outcome.output);
    this.countResult(outcome, containerID);
    return true;
  }

  private countResult(outcome: ProbeOutcome, containerID: string): void {
    const { kind, timing } = this.deps;
    this.resultRun = this.lastResult === outcome.result ? this.resultRun + 1 : 1;
    this.lastResult = outcome.result;
    const threshold = outcome.result === 'failure' ? timing.failureThreshold : timing.successThreshold;
    if (this.resultRun < threshold) return;
    this.deps.publish(containerID, outcome.result, outcome.stopExitCode);
    if (kind !== 'Readiness' && outcome.result === 'failure') {
      // The container will be restarted: probe again only once a new one runs.
      this.onHold = true;
      this.resultRun = 0;
    }
  }
}
