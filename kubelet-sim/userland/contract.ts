/**
 * The seam between the kubelet's streaming endpoints (exec, attach, port-forward: the wire) and
 * the simulated userland of a container (its filesystem, environment, shell and servers).
 *
 * The wire side turns a client's WebSocket channels into a ProcessIO and asks a
 * UserlandProvider for the container; the userland side runs the command and never sees a
 * socket. Both sides depend only on this file.
 */

import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Clock, DeepReadonly } from '../../controllers/runtime/types.js';

/** What a process in a simulated container reads and writes. */
export interface ProcessIO {
  /** What the client sends on stdin, chunk by chunk; ends when the client closes stdin.
   * Undefined when the client asked for no stdin. */
  readonly stdin?: AsyncIterable<Uint8Array>;
  /** Writes to the client's stdout. */
  stdout(data: string | Uint8Array): void;
  /** Writes to the client's stderr (with a TTY the wire sends it to stdout, as a terminal does). */
  stderr(data: string | Uint8Array): void;
  /** Whether the client asked for a terminal (`kubectl exec -it`): a shell then prompts and echoes. */
  readonly tty: boolean;
  /** The terminal's size, when the client sent one (resize channel); updated in place. */
  readonly terminalSize?: { readonly width: number; readonly height: number };
  /** Aborted when the client goes away or the container stops: the process must end promptly. */
  readonly signal: AbortSignal;
}

/** A running container's userland, as an exec or attach sees it. */
export interface ContainerUserland {
  /** Runs argv (exec's `command` parameters, unchanged) in the container and resolves to its
   * exit code. Unknown commands resolve to 127 after writing `sh: <name>: not found`-style
   * errors as a real shell or runtime would. */
  exec(argv: readonly string[], io: ProcessIO): Promise<number>;
  /** Attaches to the container's main process (kubectl attach / run -it), the one runMain runs
   * (waiting for it to start): its output from now on, and its stdin when the container has
   * `stdin: true`. Resolves to the exit code when the process ends, or undefined when the
   * client detaches first. */
  attach(io: ProcessIO): Promise<number | undefined>;
  /** Opens a TCP-like connection to a port the container listens on (port-forward); undefined
   * when nothing listens there (the wire reports it as kubectl expects). */
  connect?(port: number): UserlandConnection | undefined;
  /** Optional: runs the container's main process (command/args with `$(VAR)` expanded, or the
   * image's default) on io — its output is the container's log — and resolves to its exit code
   * when it ends, or when io.signal aborts (the container is stopped). */
  runMain?(io: ProcessIO): Promise<number>;
}

/** One port-forwarded connection: bytes in, bytes out. */
export interface UserlandConnection {
  write(data: Uint8Array): void;
  /** Called with what the server sends; end() when it closes its side. */
  onData(listener: (data: Uint8Array) => void): void;
  onEnd(listener: () => void): void;
  end(): void;
}

/** Why a container cannot be reached: kube-apiserver/kubelet word the errors from these. */
export type ContainerLookup =
  | { readonly found: true; readonly userland: ContainerUserland }
  | { readonly found: false; readonly reason: 'PodNotFound' | 'ContainerNotFound' | 'ContainerNotRunning'; readonly message: string };

/** The kubelet's view of its containers' userlands. */
export interface UserlandProvider {
  container(namespace: string, pod: string, container: string): ContainerLookup;
}

/** Reads the cluster objects a container's userland needs (ConfigMaps and Secrets for env and
 * volumes, Services and EndpointSlices for service variables, DNS and traffic). Backed by the
 * kubelet's client; the userland caches nothing it cannot invalidate. */
export interface ClusterReader {
  /** One object by resource (plural, e.g. 'configmaps'), or undefined when it does not exist. */
  get(resource: string, namespace: string, name: string): Promise<Record<string, unknown> | undefined>;
  /** Every object of a resource, in one namespace or (namespace undefined) all of them. */
  list(resource: string, namespace?: string): Promise<Record<string, unknown>[]>;
  /** Optional: a service account token from the TokenRequest API (what a kubelet writes into a
   * projected serviceAccountToken volume). Without it the userland writes a placeholder file. */
  requestToken?(
    namespace: string,
    serviceAccount: string,
    request: { audience?: string; expirationSeconds?: number; podName: string; podUid: string },
  ): Promise<string | undefined>;
}

/** What the userland knows of the container it builds. */
export interface ContainerContext {
  readonly pod: DeepReadonly<Pod>;
  readonly containerName: string;
  readonly cluster: ClusterReader;
  /** The cluster clock (virtual time moves `sleep` and `date`). */
  readonly clock: Clock;
  /** Optional: the pod network (cluster DNS, Service routing, NetworkPolicy) that wget, curl,
   * nc and nslookup use. Without it every packet leaves the pod and is never answered. */
  readonly network?: PodNetwork;
}

/** A DNS record as the cluster DNS answers it. */
export interface DnsRecord {
  readonly name: string;
  readonly type: 'A' | 'AAAA' | 'CNAME' | 'PTR';
  readonly data: string;
}

/** What a DNS query gets: an answer (NOERROR with records, possibly none, or NXDOMAIN), or
 * nothing at all (the server is unknown or a NetworkPolicy drops the packet): the resolver
 * waits its own timeout. */
export type DnsReply =
  | { readonly kind: 'answer'; readonly rcode: 'NOERROR' | 'NXDOMAIN'; readonly records: readonly DnsRecord[] }
  | { readonly kind: 'dropped' };

/** What a TCP connect from a pod gets: a connection, a refusal (RST, or kube-proxy's REJECT of
 * a Service without endpoints), or silence (dropped by a NetworkPolicy, or no route): the
 * client waits its own connect timeout. */
export type ConnectOutcome =
  | { readonly kind: 'connected'; readonly connection: UserlandConnection; readonly ip: string; readonly port: number }
  | { readonly kind: 'refused' }
  | { readonly kind: 'dropped' };

/** The network a pod's containers send packets into. */
export interface PodNetwork {
  /** Sends a DNS query (UDP port 53) from `from` to the nameserver `server`. */
  query(from: DeepReadonly<Pod>, server: string, name: string, type: 'A' | 'AAAA' | 'PTR'): Promise<DnsReply>;
  /** Opens a TCP connection from `from` to ip:port (a ClusterIP, a node port, a pod IP). */
  connect(from: DeepReadonly<Pod>, ip: string, port: number): Promise<ConnectOutcome>;
}

/** Builds a container's userland; called once per container start, lazily (on first exec). */
export type UserlandFactory = (context: ContainerContext) => ContainerUserland;
