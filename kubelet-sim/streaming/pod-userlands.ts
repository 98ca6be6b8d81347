/**
 * The kubelet's UserlandProvider: finds a container among the pods this process runs (its
 * pod informer) and builds the container's userland with the configured UserlandFactory —
 * lazily, on the first exec, once per container start (a restart gets a fresh one). Lookups
 * fail as a kubelet's do: `pod does not exist`, `container not found ("name")` for a
 * container the pod lacks or one that is not running.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { allContainers } from '../../apiserver/api/core/pod-spec-defaults.js';
import { allContainerStatuses } from '../../apiserver/api/core/pod-status.js';
import type { Clock, DeepReadonly, Informer, Lister } from '../../controllers/runtime/types.js';
import type { ClusterReader, ContainerLookup, ContainerUserland, PodNetwork, UserlandFactory, UserlandProvider } from '../userland/contract.js';

export interface PodUserlandsDeps {
  lister: Lister<Pod>;
  /** The pod informer, whose changes end the sessions of containers that stopped. */
  informer?: Pick<Informer<Pod>, 'addEventHandlers'>;
  /** Whether a node is simulated by this process. */
  isLocalNode(name: string): boolean;
  /** Builds a container's userland, or loads the factory that does (on the first stream: the
   * userland's modules cost a start-up nothing until someone execs). */
  factory: KubeletUserlandFactory | { load(): Promise<KubeletUserlandFactory> };
  cluster: ClusterReader;
  clock: Clock;
  /** The pod network the containers' wget, curl and nslookup use (kubelet-sim/network/). */
  network?: PodNetwork;
}

/** A factory that may keep per-pod state (emptyDirs): `forgetPod` is told of deleted pods. */
export type KubeletUserlandFactory = UserlandFactory & { forgetPod?(podUid: string): void };

/** PodUserlands is the provider, with what the streaming endpoints ask before they open one. */
export interface PodUserlands extends UserlandProvider {
  /** Loads the factory if it is not loaded yet; call before container(). */
  ready(): Promise<void>;
  /** The pod as the kubelet sees it (port-forward picks a container from it). */
  pod(namespace: string, name: string): DeepReadonly<Pod> | undefined;
  /** Why the container cannot be reached, or undefined when it runs (builds nothing). */
  problem(namespace: string, name: string, containerName: string): Extract<ContainerLookup, { found: false }> | undefined;
  /** Aborts the returned signal once the container stops running or its pod goes away (or is
   * replaced; without a container, only then); release() when the session ended first. */
  whenStopped(namespace: string, name: string, containerName?: string): { signal: AbortSignal; release(): void };
  /** The running container's userland if a stream already built it, else undefined (builds nothing). */
  existing(namespace: string, name: string, containerName: string): ContainerUserland | undefined;
  /** The userland of one run of a container the kubelet just started (its main process runs
   * there; exec and attach to that run reach the same one). Call ready() first. */
  forRun(pod: DeepReadonly<Pod>, containerName: string, restartCount: number): ContainerUserland;
}

interface StopWatcher {
  uid: string;
  container: string | undefined;
  stopped: AbortController;
}

type Located = Extract<ContainerLookup, { found: false }> | { found: true; pod: DeepReadonly<Pod>; key: string };

interface Built {
  namespace: string;
  pod: string;
  userland: ContainerUserland;
}

export function createPodUserlands(deps: PodUserlandsDeps): PodUserlands {
  // Keyed by pod uid, container and restart count: a restarted container starts afresh.
  const built = new Map<string, Built>();
  let factory = typeof deps.factory === 'function' ? deps.factory : undefined;
  const pod = (namespace: string, name: string) => {
    const found = deps.lister.get(namespace, name);
    return found && deps.isLocalNode(found.spec.nodeName ?? '') ? found : undefined;
  };
  const build = (found: DeepReadonly<Pod>, containerName: string, key: string): ContainerUserland => {
    if (!factory) throw new Error('the userland factory is not loaded: call ready() first');
    forgetGone(built, pod);
    const userland = factory({ pod: found, containerName, cluster: deps.cluster, clock: deps.clock, network: deps.network });
    built.set(key, { namespace: found.metadata.namespace ?? '', pod: found.metadata.name ?? '', userland });
    return userland;
  };
  const locate = (namespace: string, name: string, containerName: string): Located => {
    const found = pod(namespace, name);
    if (!found) return { found: false, reason: 'PodNotFound', message: 'pod does not exist' };
    const notFound = `container not found (${JSON.stringify(containerName)})`;
    if (!allContainers(found.spec as Pod['spec']).some((c) => c.name === containerName)) {
      return { found: false, reason: 'ContainerNotFound', message: notFound };
    }
    const status = containerStatuses(found).find((s) => s.name === containerName);
    if (!status?.state?.running) return { found: false, reason: 'ContainerNotRunning', message: notFound };
    return { found: true, pod: found, key: `${found.metadata.uid}/${containerName}/${status.restartCount ?? 0}` };
  };
  const watchers = watchStops(
    deps,
    (watcher, namespace, name) => {
      if (watcher.container === undefined) return pod(namespace, name)?.metadata.uid !== watcher.uid;
      const located = locate(namespace, name, watcher.container);
      return !located.found || located.pod.metadata.uid !== watcher.uid;
    },
    (uid) => factory?.forgetPod?.(uid),
  );
  return {
    async ready() {
      if (!factory && typeof deps.factory !== 'function') factory = await deps.factory.load();
    },
    pod,
    problem(namespace, name, containerName) {
      const located = locate(namespace, name, containerName);
      return located.found ? undefined : located;
    },
    whenStopped(namespace, name, containerName) {
      const key = `${namespace}/${name}`;
      const watcher: StopWatcher = { uid: pod(namespace, name)?.metadata.uid ?? '', container: containerName, stopped: new AbortController() };
      const set = watchers.get(key) ?? new Set();
      watchers.set(key, set.add(watcher));
      const release = () => {
        set.delete(watcher);
        if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
      };
      return { signal: watcher.stopped.signal, release };
    },
    existing(namespace, name, containerName) {
      const located = locate(namespace, name, containerName);
      return located.found ? built.get(located.key)?.userland : undefined;
    },
    forRun(found, containerName, restartCount) {
      const run = `${found.metadata.uid}/${containerName}/`;
      // A restart gets a fresh userland; the previous run's is dropped.
      for (const known of built.keys()) if (known.startsWith(run) && known !== `${run}${restartCount}`) built.delete(known);
      return built.get(`${run}${restartCount}`)?.userland ?? build(found, containerName, `${run}${restartCount}`);
    },
    container(namespace, name, containerName): ContainerLookup {
      const located = locate(namespace, name, containerName);
      if (!located.found) return located;
      return { found: true, userland: built.get(located.key)?.userland ?? build(located.pod, containerName, located.key) };
    },
  };
}

function containerStatuses(pod: DeepReadonly<Pod>) {
  return allContainerStatuses(pod.status);
}

/** forgetGone drops the userlands of pods that left this kubelet (or were replaced). */
function forgetGone(built: Map<string, Built>, pod: (namespace: string, name: string) => DeepReadonly<Pod> | undefined): void {
  for (const [key, entry] of built) {
    const current = pod(entry.namespace, entry.pod);
    if (!current || !key.startsWith(`${current.metadata.uid}/`)) built.delete(key);
  }
}

/** watchStops follows the pod informer, aborts the watchers whose container `isStopped` says
 * says has stopped; the map it returns holds the watchers by namespace/name. */
function watchStops(
  deps: PodUserlandsDeps,
  isStopped: (watcher: StopWatcher, namespace: string, name: string) => boolean,
  onPodGone: (uid: string) => void,
): Map<string, Set<StopWatcher>> {
  const watchers = new Map<string, Set<StopWatcher>>();
  const check = (changed: DeepReadonly<Pod>, deleted: boolean) => {
    const namespace = changed.metadata.namespace ?? '';
    const name = changed.metadata.name ?? '';
    for (const watcher of watchers.get(`${namespace}/${name}`) ?? []) {
      if (deleted || isStopped(watcher, namespace, name)) watcher.stopped.abort();
    }
  };
  deps.informer?.addEventHandlers({
    onUpdate: (_old, changed) => check(changed, false),
    onDelete: (gone) => {
      check(gone, true);
      if (gone.metadata.uid) onPodGone(gone.metadata.uid);
    },
  });
  return watchers;
}
