/**
 * The kubelet's probe manager for every node of this process: a worker per (pod, container,
 * probe) for the pods that declare probes — pods without probes cost one look at their spec
 * when they change, nothing else — its results kept in a ProbeResultStore the pod workers
 * read, and the pod requeued whenever a result changes what the kubelet reports.
 *
 * The handlers (run-probe.ts, targets.ts and the userland behind them) are imported on the
 * first probe run, so a cluster without probes never loads them.
 */
import type { Container } from '../../apiserver/api/core/container.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { ContainerStatus } from '../../apiserver/api/core/pod-status.js';
import type { Probe } from '../../apiserver/api/core/probe.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import type { Clock, DeepReadonly, EventRecorder, Informer, Lister, Logger } from '../../controllers/runtime/types.js';
import { parseBehaviour } from '../behaviour.js';
import type { PodUserlands } from '../streaming/pod-userlands.js';
import { type PodProbeResults, PROBE_KINDS, type ProbeKind, ProbeResultStore } from './results.js';
import type { ProbeTargets } from './targets.js';
import { type ContainerView, type ProbeOutcome, type ProbeTiming, ProbeWorker } from './worker.js';

export interface ProberDeps {
  lister: Lister<Pod>;
  informer: Pick<Informer<Pod>, 'addEventHandlers'>;
  isLocalNode(name: string): boolean;
  userlands: PodUserlands;
  clock: Clock;
  logger: Logger;
  /** The event recorder of a node (its kubelet's), if events are recorded. */
  recorderFor(nodeName: string): EventRecorder | undefined;
}

/** Prober is what the kubelet keeps of the probe manager. */
export interface Prober {
  /** The results of a pod's containers, by container name; undefined when it has none. */
  resultsFor(podUid: string): PodProbeResults | undefined;
  /** Called with `namespace/name` when a result changed (the pod workers' queue). */
  onChange(listener: (key: string) => void): void;
  /** Stops every worker. */
  stop(): void;
}

const PROBE_FIELD: Record<ProbeKind, 'startupProbe' | 'livenessProbe' | 'readinessProbe'> = {
  Startup: 'startupProbe',
  Liveness: 'livenessProbe',
  Readiness: 'readinessProbe',
};

/** probeOf: the container's probe of that kind. */
export function probeOf(container: DeepReadonly<Container>, kind: ProbeKind): DeepReadonly<Probe> | undefined {
  return container[PROBE_FIELD[kind]];
}

/** hasProbes: any container of the pod declares a probe (init sidecars included). */
export function hasProbes(pod: DeepReadonly<Pod>): boolean {
  const declares = (c: DeepReadonly<Container>) => !!(c.readinessProbe || c.livenessProbe || c.startupProbe);
  return pod.spec.containers.some(declares) || (pod.spec.initContainers ?? []).some(declares);
}

/** readinessByAnnotation: the pod's kubesim.io readiness annotations decide, not its probe. */
export function readinessByAnnotation(pod: DeepReadonly<Pod>): boolean {
  const { behaviour } = parseBehaviour(pod);
  return behaviour.readyAfterMs !== undefined || behaviour.readiness === 'fail';
}

export function timingOf(probe: DeepReadonly<Probe>): ProbeTiming {
  return {
    initialDelaySeconds: probe.initialDelaySeconds ?? 0,
    periodSeconds: Math.max(1, probe.periodSeconds ?? 10),
    timeoutSeconds: Math.max(1, probe.timeoutSeconds ?? 1),
    successThreshold: Math.max(1, probe.successThreshold ?? 1),
    failureThreshold: Math.max(1, probe.failureThreshold ?? 3),
  };
}

export function createProber(deps: ProberDeps): Prober {
  const results = new ProbeResultStore();
  const workers = new Map<string, Map<string, ProbeWorker>>();
  const listeners: Array<(key: string) => void> = [];
  let targets: Promise<ProbeTargets> | undefined;
  let runner: Promise<typeof import('./run-probe.js')> | undefined;
  const keyOf = (pod: DeepReadonly<Pod>) => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
  const changed = (pod: DeepReadonly<Pod>) => {
    for (const listener of listeners) listener(keyOf(pod));
  };
  const stopPod = (uid: string) => {
    for (const worker of workers.get(uid)?.values() ?? []) worker.stop();
    workers.delete(uid);
    results.forgetPod(uid);
  };
  const run = async (pod: DeepReadonly<Pod>, container: DeepReadonly<Container>, probe: DeepReadonly<Probe>): Promise<ProbeOutcome> => {
    runner ??= import('./run-probe.js');
    targets ??= import('./targets.js').then((module) => module.createProbeTargets(deps.userlands, deps.clock));
    const current = currentPod(deps.lister, pod) ?? pod;
    return (await runner).runProbe({ pod: current, container, probe, podIP: current.status?.podIP ?? '' }, await targets, deps.clock);
  };
  const workerFor = (pod: DeepReadonly<Pod>, container: DeepReadonly<Container>, kind: ProbeKind, probe: DeepReadonly<Probe>): ProbeWorker => {
    const uid = pod.metadata.uid ?? '';
    const recorder = () => deps.recorderFor(pod.spec.nodeName ?? '');
    return new ProbeWorker({
      kind,
      timing: timingOf(probe),
      clock: deps.clock,
      view: () => containerView(currentPod(deps.lister, pod), container.name),
      run: () => run(pod, container, probe),
      publish: (containerID, result, stopExitCode) => {
        if (results.set(uid, container.name, containerID, kind, result, stopExitCode)) changed(pod);
      },
      forget: () => results.remove(uid, container.name, kind),
      failed: (output) => recorder()?.event(currentPod(deps.lister, pod) ?? pod, 'Warning', 'Unhealthy', `${kind} probe failed: ${output}`),
      ended: () => workers.get(uid)?.delete(`${container.name}/${kind}`),
    });
  };
  const sync = (pod: DeepReadonly<Pod>) => {
    const uid = pod.metadata.uid ?? '';
    if (!deps.isLocalNode(pod.spec.nodeName ?? '') || !hasProbes(pod)) return;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return stopPod(uid);
    let own = workers.get(uid);
    if (!own) {
      own = new Map();
      workers.set(uid, own);
      const annotated = readinessByAnnotation(pod);
      const init = new Set((pod.spec.initContainers ?? []).map((c) => c.name));
      for (const container of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
        for (const kind of PROBE_KINDS) {
          const probe = probeOf(container, kind);
          // The stages follow readiness for app containers only (sidecars are ready when started).
          if (!probe || (kind === 'Readiness' && (annotated || init.has(container.name)))) continue;
          const worker = workerFor(pod, container, kind, probe);
          own.set(`${container.name}/${kind}`, worker);
          worker.start();
        }
      }
    }
    triggerReadiness(pod, own, results.forPod(uid));
  };
  deps.informer.addEventHandlers({
    onAdd: sync,
    onUpdate: (_old, pod) => sync(pod),
    onDelete: (pod) => stopPod(pod.metadata.uid ?? ''),
  });
  return {
    resultsFor: (uid) => results.forPod(uid),
    onChange: (listener) => listeners.push(listener),
    stop: () => {
      for (const uid of [...workers.keys()]) stopPod(uid);
    },
  };
}

/** triggerReadiness: a started, running container not (yet) ready is probed at once rather
 * than at its next tick, as the kubelet's status update triggers its readiness worker. */
function triggerReadiness(pod: DeepReadonly<Pod>, own: Map<string, ProbeWorker>, known: PodProbeResults | undefined): void {
  for (const status of pod.status?.containerStatuses ?? []) {
    const worker = own.get(`${status.name}/Readiness`);
    if (!worker || !status.state?.running || status.started === false) continue;
    const result = known?.[status.name];
    if (result?.containerID !== status.containerID || result?.results.Readiness !== 'success') worker.trigger();
  }
}

/** currentPod: the cache's copy of the pod, while it is the same pod (same uid). */
function currentPod(lister: Lister<Pod>, pod: DeepReadonly<Pod>): DeepReadonly<Pod> | undefined {
  const found = lister.get(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
  return found?.metadata.uid === pod.metadata.uid ? found : undefined;
}

function containerView(pod: DeepReadonly<Pod> | undefined, name: string): ContainerView {
  if (!pod) return { kind: 'gone' };
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return { kind: 'done' };
  const status: DeepReadonly<ContainerStatus> | undefined = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find(
    (candidate) => candidate.name === name,
  );
  return {
    kind: 'present',
    containerID: status?.containerID ?? '',
    running: !!status?.state?.running,
    terminated: !!status?.state?.terminated,
    startedAtMs: parseTimeMs(status?.state?.running?.startedAt),
    started: status?.started === true,
    deleting: !!pod.metadata.deletionTimestamp,
    restartNever: pod.spec.restartPolicy === 'Never',
  };
}
