/**
 * Building a container's state on its first use: the image layer, the kubelet's /etc files, the
 * pod's volumes mounted where the container asks, its identity and environment.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import { ObjectCache } from './cluster-objects.js';
import type { ContainerContext } from './contract.js';
import { buildEnvironment, expandReferences } from './environment.js';
import { hostsFile, podHostname, resolvConf } from './etc-files.js';
import { argsOnlyTakeOptions, type ImageProfile, imageProfile } from './images.js';
import { namespaceKey, type PidNamespace, type PidNamespaces, pidNamespace } from './pid-namespace.js';
import type { ContainerState, ProcessEntry } from './process.js';
import { imageLayer } from './rootfs.js';
import { type FsNode, newDir, splitPath } from './vfs.js';
import { isProjected, refreshVolume, VOLUME_SYNC_DELAY_MS, type VolumeContext, type VolumeStores, volumeRoot } from './volumes.js';

type ReadonlyPod = DeepReadonly<Pod>;
export type PodContainer = DeepReadonly<NonNullable<Pod['spec']>['containers'][number]>;

/** A built container: its state, what it runs as PID 1, and how to bring its volumes up to date. */
export interface BuiltContainer {
  readonly state: ContainerState;
  readonly spec: PodContainer;
  readonly workingDir: string;
  /** The main process's argv: command and args ($(VAR)-expanded), or the image's default. */
  readonly mainCommand: readonly string[];
  /** The main process's pid: 1, or the one it has in a namespace shared with other containers. */
  readonly mainPid: number;
  /** Re-reads ConfigMap/Secret-backed volumes when the sync delay has passed since the last read. */
  refreshVolumes(): Promise<void>;
}

/** findContainer: a container, init container or ephemeral container of the pod by name. */
export function findContainer(pod: ReadonlyPod, name: string): PodContainer | undefined {
  const spec = pod.spec;
  const all = [...(spec?.containers ?? []), ...(spec?.initContainers ?? []), ...((spec?.ephemeralContainers ?? []) as readonly PodContainer[])];
  return all.find((container) => container.name === name);
}

interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  supplementalGroups?: number[];
  fsGroup?: number;
}

function identity(pod: ReadonlyPod, container: PodContainer): { uid: number; gid: number; groups: number[] } {
  const podContext = (pod.spec?.securityContext ?? {}) as SecurityContext;
  const own = (container.securityContext ?? {}) as SecurityContext;
  const uid = own.runAsUser ?? podContext.runAsUser ?? 0;
  const gid = own.runAsGroup ?? podContext.runAsGroup ?? 0;
  const groups = [...(podContext.fsGroup !== undefined ? [podContext.fsGroup] : []), ...(podContext.supplementalGroups ?? [])];
  return { uid, gid, groups };
}

/** startedAt: when the container started, from its status (deterministic file times), else now. */
function startedAt(pod: ReadonlyPod, name: string, now: number): number {
  const statuses = (pod.status as { containerStatuses?: ReadonlyArray<{ name: string; state?: { running?: { startedAt?: string } } }> } | undefined)
    ?.containerStatuses;
  const text = statuses?.find((status) => status.name === name)?.state?.running?.startedAt;
  const parsed = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(parsed) ? now : parsed;
}

export async function buildContainer(context: ContainerContext, container: PodContainer, stores: VolumeStores): Promise<BuiltContainer> {
  const { pod, clock } = context;
  const profile = imageProfile(container.image);
  const started = startedAt(pod, container.name, clock.now());
  const fs = imageLayer(profile, () => clock.now(), pod.metadata?.name ?? '');
  const hostname = podHostname(pod);
  const kubeletFile = { mtime: started };
  fs.writeFile('/etc/hostname', `${hostname}\n`, kubeletFile);
  fs.writeFile('/etc/hosts', hostsFile(pod), kubeletFile);
  fs.writeFile('/etc/resolv.conf', resolvConf(pod), kubeletFile);
  fs.writeFile('/dev/termination-log', '', kubeletFile);
  const objects = new ObjectCache(context.cluster, pod.metadata?.namespace ?? 'default');
  const { uid, gid, groups } = identity(pod, container);
  const env = await buildEnvironment({ pod, container, imageEnv: profile.env, hostname, home: uid === 0 ? '/root' : '/', objects });
  const refreshVolumes = await mountVolumes(context, container, fs, objects, stores, new Map(env));
  const workingDir = container.workingDir || profile.workingDir;
  fs.mkdir(workingDir, { parents: true, mtime: started });
  const mainCommand = mainCommandOf(container, profile, env);
  const user = uid === 0 ? 'root' : String(uid);
  const namespace = processTable(pod, container, { pid: 1, user, command: mainCommand.join(' '), startedAt: started }, stores.pids, clock.now());
  const state: ContainerState = {
    fs,
    profile,
    hostname,
    clock,
    uid,
    gid,
    supplementalGroups: groups,
    podIP: (pod.status as { podIP?: string } | undefined)?.podIP,
    env,
    processes: namespace.processes,
    killers: namespace.killers,
    nextPid: 0,
    network: containerNetwork(context),
  };
  // The pid counter belongs to the namespace, which a debug container shares with its target.
  Object.defineProperty(state, 'nextPid', {
    get: () => namespace.nextPid,
    set: (value: number) => {
      namespace.nextPid = value;
    },
  });
  const mainPid = [...namespace.processes.values()].find((entry) => entry.container === container.name)?.pid ?? 1;
  return { state, spec: container, workingDir, mainCommand, mainPid, refreshVolumes };
}

/** processTable is the container's PID namespace: its own, or its target's for a debug
 * container with targetContainerName (which then shows its main process there). */
function processTable(pod: ReadonlyPod, container: PodContainer, main: ProcessEntry, namespaces: PidNamespaces, now: number): PidNamespace {
  const uid = pod.metadata?.uid ?? '';
  if (pod.spec?.shareProcessNamespace) return podNamespace(pod, namespaces, now);
  const target = (container as { targetContainerName?: string }).targetContainerName;
  const targetSpec = target ? findContainer(pod, target) : undefined;
  const namespace = targetSpec
    ? pidNamespace(namespaces, namespaceKey(uid, targetSpec.name, startedAt(pod, targetSpec.name, now)), undefined)
    : pidNamespace(namespaces, namespaceKey(uid, container.name, main.startedAt), main);
  if (targetSpec && !namespace.processes.has(1)) {
    // The target's userland is not built yet: its PID 1 as its spec says (env references unexpanded).
    const command = mainCommandOf(targetSpec, imageProfile(targetSpec.image), []).join(' ');
    namespace.processes.set(1, { pid: 1, user: main.user, command, startedAt: startedAt(pod, targetSpec.name, now) });
  }
  if (targetSpec) {
    const pid = namespace.nextPid++;
    namespace.processes.set(pid, { ...main, pid, container: container.name });
  }
  return namespace;
}

/** podNamespace is the one PID namespace of a pod with shareProcessNamespace: the pause
 * process is PID 1, then the main process of each app container. */
function podNamespace(pod: ReadonlyPod, namespaces: PidNamespaces, now: number): PidNamespace {
  const key = namespaceKey(pod.metadata?.uid ?? '', '', 0);
  const existing = namespaces.get(key);
  if (existing) return existing;
  const namespace = pidNamespace(namespaces, key, { pid: 1, user: '65535', command: '/pause', startedAt: now });
  for (const spec of pod.spec?.containers ?? []) {
    const pid = namespace.nextPid++;
    const command = mainCommandOf(spec, imageProfile(spec.image), []).join(' ');
    namespace.processes.set(pid, { pid, user: 'root', command, startedAt: startedAt(pod, spec.name, now), container: spec.name });
  }
  return namespace;
}

/** containerNetwork: the pod network as seen from this container's pod. */
function containerNetwork({ network, pod }: ContainerContext): ContainerState['network'] {
  if (!network) return undefined;
  return { query: (server, name, type) => network.query(pod, server, name, type), connect: (ip, port) => network.connect(pod, ip, port) };
}

function mainCommandOf(container: PodContainer, profile: ImageProfile, env: ReadonlyArray<readonly [string, string]>): string[] {
  const vars = new Map(env);
  const expand = (words: readonly string[]) => words.map((word) => expandReferences(word, (name) => vars.get(name)));
  if (container.command && container.command.length > 0) return expand([...container.command, ...(container.args ?? [])]);
  if (container.args && container.args.length > 0)
    return argsOnlyTakeOptions(profile) ? [...profile.defaultCommand.slice(0, 1), ...expand(container.args)] : expand(container.args);
  return [...profile.defaultCommand];
}

/** mountVolumes grafts each volumeMount; returns the refresher of the ConfigMap/Secret-backed ones. */
async function mountVolumes(
  context: ContainerContext,
  container: PodContainer,
  fs: ReturnType<typeof imageLayer>,
  objects: ObjectCache,
  stores: VolumeStores,
  env: ReadonlyMap<string, string>,
): Promise<() => Promise<void>> {
  const { pod, clock } = context;
  const volumes = new Map((pod.spec?.volumes ?? []).map((volume) => [volume.name, volume]));
  const volumeContext = (): VolumeContext => ({
    pod,
    objects: new ObjectCache(context.cluster, objects.namespace),
    stores,
    now: clock.now(),
    requestToken: context.cluster.requestToken
      ? (serviceAccount, audience, expirationSeconds) =>
          context.cluster.requestToken!(objects.namespace, serviceAccount, {
            audience,
            expirationSeconds,
            podName: pod.metadata?.name ?? '',
            podUid: pod.metadata?.uid ?? '',
          })
      : undefined,
  });
  const first: VolumeContext = { ...volumeContext(), objects };
  const roots = new Map<string, Awaited<ReturnType<typeof volumeRoot>>>();
  const refreshable: string[] = [];
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.get(mount.name);
    if (!volume) continue;
    let root = roots.get(volume.name);
    if (!root) {
      root = await volumeRoot(volume, first);
      roots.set(volume.name, root);
    }
    const projected = isProjected(volume);
    const subPath = mount.subPath || (mount.subPathExpr ? expandReferences(mount.subPathExpr, (name) => env.get(name)) : '');
    let node: FsNode = root;
    if (subPath) node = subPathNode(root, subPath, projected, clock.now());
    else if (projected && !refreshable.includes(volume.name)) refreshable.push(volume.name);
    // The kubelet mounts ConfigMap, Secret, downward API and projected volumes read-only.
    fs.mount(mount.mountPath, node, { readOnly: !!mount.readOnly || projected });
  }
  let lastSync = clock.now();
  return async () => {
    if (refreshable.length === 0 || clock.now() - lastSync < VOLUME_SYNC_DELAY_MS) return;
    lastSync = clock.now();
    const fresh = volumeContext();
    for (const name of refreshable) {
      // As a kubelet does, a volume whose objects cannot be read keeps its files until the next sync.
      await refreshVolume(volumes.get(name)!, roots.get(name)!, fresh).catch(() => undefined);
    }
  };
}

/** subPathNode: the node at subPath in a volume; a missing one is created as a directory, as the
 * kubelet does (a copy for projected volumes, which therefore never see updates). */
function subPathNode(root: FsNode, subPath: string, projected: boolean, now: number): FsNode {
  let node = root;
  for (const part of splitPath(subPath)) {
    if (node.kind !== 'dir') break;
    let next = node.entries.get(part);
    if (!next) {
      next = newDir(now);
      node.entries.set(part, next);
    }
    node = next;
  }
  return projected && node.kind === 'file' ? { ...node } : node;
}
