/**
 * What a running program sees: its arguments, environment, working directory, streams and the
 * container around it (filesystem, identity, clock, process table).
 */
import type { Clock } from '../../controllers/runtime/types.js';
import type { ConnectOutcome, DnsReply } from './contract.js';
import type { ImageProfile } from './images.js';
import type { Input, Output } from './shell/streams.js';
import type { Terminal } from './shell/terminal.js';
import type { Vfs } from './vfs.js';

export interface ProcessEntry {
  readonly pid: number;
  readonly user: string;
  readonly command: string;
  readonly startedAt: number;
  /** The container whose main process this is, in a namespace several containers share. */
  readonly container?: string;
}

/** The container a program runs in: shared by every process of one container start. */
export interface ContainerState {
  readonly fs: Vfs;
  readonly profile: ImageProfile;
  readonly hostname: string;
  readonly clock: Clock;
  readonly uid: number;
  readonly gid: number;
  readonly supplementalGroups: readonly number[];
  /** The pod's IP, once it has one (hostname -i). */
  readonly podIP?: string;
  /** The container's environment as the runtime starts processes with it. */
  readonly env: ReadonlyArray<readonly [string, string]>;
  /** Running processes by pid; pid 1 is the container's main process. */
  readonly processes: Map<number, ProcessEntry>;
  /** Aborts a running process (kill); absent for pid 1, which the kubelet owns. */
  readonly killers: Map<number, (signal: number) => void>;
  nextPid: number;
  /** The pod network as this container sends into it (absent: nothing ever answers). */
  readonly network?: ContainerNetwork;
}

/** The pod network from one pod's side: DNS queries and TCP connections. */
export interface ContainerNetwork {
  query(server: string, name: string, type: 'A' | 'AAAA' | 'PTR'): Promise<DnsReply>;
  connect(ip: string, port: number): Promise<ConnectOutcome>;
}

/** A program's view of one invocation. */
export interface ProgramContext {
  readonly argv: readonly string[];
  /** The process's pid (set by runProcess). */
  readonly pid?: number;
  readonly env: ReadonlyMap<string, string>;
  readonly cwd: string;
  readonly stdin: Input;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly signal: AbortSignal;
  readonly container: ContainerState;
  /** Whether stdout is a terminal (ls prints columns). */
  readonly tty: boolean;
  /** The terminal, when there is one: an interactive shell takes ^C from it. */
  readonly terminal?: Terminal;
  /** Runs argv[0] found on PATH (env, xargs-like callers); 127 with a message when missing. */
  readonly spawn: (argv: readonly string[], context: ProgramContext) => Promise<number>;
}

/** A program resolves to its exit status. */
export type Program = (context: ProgramContext) => Promise<number> | number;

/** Whether the image's programs word their errors as GNU coreutils (Debian-like) or busybox. */
export const isGnu = (container: ContainerState): boolean => container.profile.os === 'debian' || container.profile.os === 'ubuntu';

export const userName = (uid: number): string | undefined => (uid === 0 ? 'root' : uid === 65534 ? 'nobody' : undefined);
