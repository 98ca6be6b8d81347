/**
 * Process tables as PID namespaces. Each container start has its own, with its main process as
 * PID 1; a debug container added with `targetContainerName` (`kubectl debug --target=app`)
 * joins the target's instead, as the runtime puts it in the target's PID namespace: `ps` there
 * shows the target's processes beside its own, and the target's `ps` shows the debugger's.
 */
import type { ProcessEntry } from './process.js';

/** One PID namespace: its processes, how to kill them, and the next pid to hand out. */
export interface PidNamespace {
  readonly processes: Map<number, ProcessEntry>;
  readonly killers: Map<number, (signal: number) => void>;
  nextPid: number;
}

/** PidNamespaces holds a kubelet's namespaces by `<pod uid>/<container>/<start time>`: a
 * container's restart starts a new one. */
export type PidNamespaces = Map<string, PidNamespace>;

/** The first pid a container's execs get, after the runtime's own helpers. */
const FIRST_EXEC_PID = 7;

/** namespaceKey names the namespace of one run of a container. */
export const namespaceKey = (podUid: string, container: string, startedAtMs: number): string => `${podUid}/${container}/${startedAtMs}`;

/** pidNamespace returns the namespace of `key`, making it when it does not exist yet (the
 * debugger may be built before its target, whose userland is built on its first use), and
 * records `main` as its PID 1. */
export function pidNamespace(namespaces: PidNamespaces, key: string, main: ProcessEntry | undefined): PidNamespace {
  let namespace = namespaces.get(key);
  if (!namespace) {
    namespace = { processes: new Map(), killers: new Map(), nextPid: FIRST_EXEC_PID };
    namespaces.set(key, namespace);
  }
  if (main) namespace.processes.set(1, main);
  return namespace;
}

/** forgetPodNamespaces drops the namespaces of a deleted pod. */
export function forgetPodNamespaces(namespaces: PidNamespaces, podUid: string): void {
  for (const key of namespaces.keys()) if (key.startsWith(`${podUid}/`)) namespaces.delete(key);
}
