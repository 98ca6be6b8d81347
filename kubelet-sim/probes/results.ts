/**
 * The prober's conclusions, as the kubelet's results managers keep them: one result per probe
 * kind for each container instance (its containerID), read by the stage engine (ready, started,
 * kill on liveness or startup failure) through the pod workers.
 */

/** ProbeKind names a probe as the kubelet's events do (`Readiness probe failed: …`). */
export type ProbeKind = 'Startup' | 'Liveness' | 'Readiness';

export const PROBE_KINDS: readonly ProbeKind[] = ['Startup', 'Liveness', 'Readiness'];

/** ProbeResult is a results-manager value; `unknown` is a startup probe that has not concluded. */
export type ProbeResult = 'success' | 'failure' | 'unknown';

/** ContainerProbeResults is what the prober concluded about one run of a container. */
export interface ContainerProbeResults {
  /** The run the results are about: a restarted container starts with none. */
  readonly containerID: string;
  readonly results: Readonly<Partial<Record<ProbeKind, ProbeResult>>>;
  /** How the main process ends when the kubelet stops it (SIGTERM): a server shuts down
   * cleanly (0), a process that ignores the signal is killed (137). */
  readonly stopExitCode?: number;
}

/** PodProbeResults: by container name. */
export type PodProbeResults = Readonly<Record<string, ContainerProbeResults>>;

/** ProbeResultStore keeps the results of the pods this process probes, by pod uid. */
export class ProbeResultStore {
  private readonly pods = new Map<string, Record<string, ContainerProbeResults>>();

  /** set records a result; true when it changed what the kubelet would report. */
  set(uid: string, container: string, containerID: string, kind: ProbeKind, result: ProbeResult, stopExitCode?: number): boolean {
    const pod = this.pods.get(uid) ?? {};
    this.pods.set(uid, pod);
    const known = pod[container];
    const current = known?.containerID === containerID ? known : { containerID, results: {} };
    if (current.results[kind] === result && current === known) return false;
    pod[container] = { containerID, results: { ...current.results, [kind]: result }, stopExitCode: stopExitCode ?? current.stopExitCode };
    return true;
  }

  /** remove drops a container's result of one kind (its worker stopped). */
  remove(uid: string, container: string, kind: ProbeKind): void {
    const pod = this.pods.get(uid);
    const known = pod?.[container];
    if (!pod || !known) return;
    const { [kind]: _dropped, ...rest } = known.results;
    pod[container] = { ...known, results: rest };
  }

  forgetPod(uid: string): void {
    this.pods.delete(uid);
  }

  forPod(uid: string): PodProbeResults | undefined {
    return this.pods.get(uid);
  }
}
