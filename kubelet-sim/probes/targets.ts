/**
 * Where a probe lands: the container's userland when one exists (someone exec'd into the
 * container, so its files may have changed), else the image's pristine server — the web server
 * of the image answering from the image's own files, built once per image family and shared.
 * Only a container whose volumes could change what its server serves (anything mounted besides
 * the service-account token) gets its own userland built for the probe, once per container run.
 * Loaded on the first probe (import()), so the userland's modules cost a cluster without
 * probes nothing.
 */
import type { Container } from '../../apiserver/api/core/container.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Clock, DeepReadonly } from '../../controllers/runtime/types.js';
import type { PodUserlands } from '../streaming/pod-userlands.js';
import type { ContainerUserland, UserlandConnection } from '../userland/contract.js';
import { type ImageProfile, imageProfile } from '../userland/images.js';
import type { ContainerState } from '../userland/process.js';
import { imageLayer } from '../userland/rootfs.js';
import { ServerConnection } from '../userland/servers/connection.js';
import { listenerOf } from '../userland/servers/index.js';

/** The mount every pod's containers get from the ServiceAccount admission: it holds no web pages. */
const TOKEN_MOUNT = '/var/run/secrets/';

export interface ProbeTargets {
  /** A connection to what listens on `port`, or undefined when nothing does (connection refused). */
  connect(pod: DeepReadonly<Pod>, container: DeepReadonly<Container>, port: number): Promise<UserlandConnection | undefined>;
  /** The container's userland, built on first use (exec probes run commands in it). */
  userland(pod: DeepReadonly<Pod>, container: DeepReadonly<Container>): Promise<ContainerUserland | undefined>;
  /** The exit code of the container's main process when the kubelet stops it. */
  stopExitCode(container: DeepReadonly<Container>): number;
  /** The container runs an application kubesim does not model (see isOpaqueApplication). */
  opaque(container: DeepReadonly<Container>): boolean;
}

/** APP_RUNTIMES: images whose main process is the user's own program (`node server.js`). */
const APP_RUNTIMES = new Set(['node', 'python', 'postgres']);

/**
 * isOpaqueApplication: an image kubesim knows nothing of (`ghcr.io/acme/api`), a language
 * runtime, or postgres (whose simulated server answers only the protocol's start-up and trivial
 * queries, not pg_isready or a user's schema) runs code that kubesim cannot see. Such a
 * container is taken to answer its probes as its authors meant it to. A real manifest's probes
 * on its own images then pass, as they do in the cluster it was written for, instead of keeping
 * every such pod unready or in a restart loop. The OS images (busybox, alpine, debian, ubuntu)
 * and the simulated servers are modelled: what they do not serve fails as it would.
 */
export function isOpaqueApplication(container: DeepReadonly<Container>): boolean {
  const profile = imageProfile(container.image);
  return profile.family === 'generic' || APP_RUNTIMES.has(profile.server ?? '');
}

export function createProbeTargets(userlands: PodUserlands, clock: Clock): ProbeTargets {
  const pristine = new Map<string, ContainerState>();
  const pristineState = (profile: ImageProfile): ContainerState => {
    let state = pristine.get(profile.family);
    if (!state) {
      state = pristineContainer(profile, clock);
      pristine.set(profile.family, state);
    }
    return state;
  };
  const userland = async (pod: DeepReadonly<Pod>, container: DeepReadonly<Container>) => {
    await userlands.ready();
    const found = userlands.container(pod.metadata.namespace ?? '', pod.metadata.name ?? '', container.name);
    return found.found ? found.userland : undefined;
  };
  return {
    userland,
    async connect(pod, container, port) {
      const listener = listenerOf(imageProfile(container.image), container);
      const existing = userlands.existing(pod.metadata.namespace ?? '', pod.metadata.name ?? '', container.name);
      if (existing) return existing.connect?.(port);
      if (listener?.port !== port) return undefined;
      if ((container.volumeMounts ?? []).some((mount) => !mount.mountPath.startsWith(TOKEN_MOUNT))) return (await userland(pod, container))?.connect?.(port);
      return new ServerConnection(Promise.resolve(listener.serve(pristineState(imageProfile(container.image)), new Map())));
    },
    stopExitCode(container) {
      return listenerOf(imageProfile(container.image), container) ? 0 : 137;
    },
    opaque: isOpaqueApplication,
  };
}

/** pristineContainer: the image's files as the image ships them, for its server to read. */
function pristineContainer(profile: ImageProfile, clock: Clock): ContainerState {
  return {
    fs: imageLayer(profile, () => clock.now(), ''),
    profile,
    hostname: '',
    clock,
    uid: 0,
    gid: 0,
    supplementalGroups: [],
    env: [],
    processes: new Map(),
    killers: new Map(),
    nextPid: 1,
  };
}
