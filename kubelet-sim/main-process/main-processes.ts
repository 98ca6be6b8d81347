/**
 * The kubelet's main processes (issue 18): when a container whose main process runs in the
 * simulated userland (runs-in-userland.ts) starts, its process runs through the userland's
 * runMain in the same userland exec and attach reach; what it writes becomes the container's
 * log, line by line, stamped with cluster time; when it ends by itself its exit code is
 * recorded and the pod re-queued, and the stage engine ends the container with it (Completed,
 * Error, StartError; restartPolicy and CrashLoopBackOff then apply as to any exit).
 *
 * A deleted pod's processes are stopped at once (their signal aborts); the container then
 * terminates on the stage engine's graceful-stop schedule, as today. Nothing runs for the
 * other containers, and the userland's modules load with the first process.
 */
import type { Container } from '../../apiserver/api/core/container.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { PodSpec } from '../../apiserver/api/core/pod-spec.js';
import { allContainers } from '../../apiserver/api/core/pod-spec-defaults.js';
import type { Clock, DeepReadonly, Informer, Logger } from '../../controllers/runtime/types.js';
import type { ContainerLogStore, LogLine } from '../logs/container-log-store.js';
import type { ProcessExit } from '../stages/types.js';
import type { PodUserlands } from '../streaming/pod-userlands.js';
import type { ProcessIO } from '../userland/contract.js';
import { plainSleepMs } from './plain-sleep.js';

export interface MainProcessesDeps {
  userlands: Pick<PodUserlands, 'ready' | 'forRun'>;
  logs: ContainerLogStore;
  clock: Clock;
  logger: Logger;
  /** Asks the pod workers to look at the pod again (one of its main processes ended). */
  enqueue(pod: DeepReadonly<Pod>): void;
  /** The pod informer: a deleted (or deleting) pod's processes stop. */
  informer?: Pick<Informer<Pod>, 'addEventHandlers'>;
}

/** MainProcesses is what the pod workers call. */
export interface MainProcesses {
  /** start runs the main process of run `restartCount` of a container that just started. */
  start(pod: DeepReadonly<Pod>, container: string, restartCount: number): void;
  /** stop ends the container's process, if it still runs (the container exited or is killed). */
  stop(podUid: string, container: string): void;
  /** exitsOf: how the pod's main processes ended, by container name (the stage engine's input). */
  exitsOf(podUid: string): Readonly<Record<string, ProcessExit>>;
}

/** The exit code a runtime reports for a process that could not start (userland.ts). */
const START_FAILURE = 128;
const START_ERROR_PREFIX = 'failed to create containerd task';

interface Running {
  restartCount: number;
  stopped: AbortController;
}

interface PodProcesses {
  running: Map<string, Running>;
  exits: Record<string, ProcessExit>;
}

const NO_EXITS: Readonly<Record<string, ProcessExit>> = Object.freeze({});

export function createMainProcesses(deps: MainProcessesDeps): MainProcesses {
  const pods = new Map<string, PodProcesses>();
  const stopAll = (uid: string) => {
    for (const running of pods.get(uid)?.running.values() ?? []) running.stopped.abort();
  };
  deps.informer?.addEventHandlers({
    onUpdate: (_old, pod) => {
      if (pod.metadata.deletionTimestamp) stopAll(pod.metadata.uid ?? '');
    },
    onDelete: (pod) => {
      stopAll(pod.metadata.uid ?? '');
      pods.delete(pod.metadata.uid ?? '');
    },
  });
  return {
    start(pod, container, restartCount) {
      const uid = pod.metadata.uid ?? '';
      let processes = pods.get(uid);
      if (!processes) pods.set(uid, (processes = { running: new Map(), exits: {} }));
      processes.running.get(container)?.stopped.abort();
      const running: Running = { restartCount, stopped: new AbortController() };
      processes.running.set(container, running);
      const ended = (exit: Omit<ProcessExit, 'restartCount' | 'atMs'>) => {
        if (processes.running.get(container) !== running || running.stopped.signal.aborted) return;
        processes.running.delete(container);
        processes.exits[container] = { restartCount, atMs: deps.clock.now(), ...exit };
        deps.enqueue(pod);
      };
      runMain(deps, pod, container, running, ended).catch((err: unknown) => {
        deps.logger.error({ err, pod: `${pod.metadata.namespace}/${pod.metadata.name}`, container }, 'main process failed');
        ended({ exitCode: START_FAILURE, reason: 'StartError', message: (err as Error).message });
      });
    },
    stop(podUid, container) {
      const processes = pods.get(podUid);
      processes?.running.get(container)?.stopped.abort();
      processes?.running.delete(container);
    },
    exitsOf: (podUid) => pods.get(podUid)?.exits ?? NO_EXITS,
  };
}

/** runMain runs one process and reports how it ended (not when the kubelet stopped it). */
async function runMain(
  deps: MainProcessesDeps,
  pod: DeepReadonly<Pod>,
  container: string,
  running: Running,
  ended: (exit: Omit<ProcessExit, 'restartCount' | 'atMs'>) => void,
): Promise<void> {
  const log = deps.logs.output({ podUid: pod.metadata.uid ?? '', container });
  const stdout = new LineWriter(log, deps.clock);
  const stderr = new LineWriter(log, deps.clock);
  const spec = allContainers(pod.spec as PodSpec).find((c) => c.name === container) as DeepReadonly<Container> | undefined;
  const io: ProcessIO = {
    stdout: (data) => stdout.write(data),
    stderr: (data) => stderr.write(data),
    tty: spec?.tty === true,
    signal: running.stopped.signal,
  };
  const sleepMs = spec && plainSleepMs(spec);
  if (sleepMs !== undefined) {
    if (await sleepOnClock(deps.clock, sleepMs, running.stopped.signal)) ended({ exitCode: 0 });
    return;
  }
  await deps.userlands.ready();
  if (running.stopped.signal.aborted) return;
  const userland = deps.userlands.forRun(pod, container, running.restartCount);
  // A userland without main processes (a test's): the container runs until stopped.
  if (!userland.runMain) return;
  const exitCode = await userland.runMain(io);
  stdout.flush();
  stderr.flush();
  const startError = exitCode === START_FAILURE && stderr.first.startsWith(START_ERROR_PREFIX);
  ended(startError ? { exitCode, reason: 'StartError', message: stderr.first.trim() } : { exitCode });
}

/** sleepOnClock waits on a cluster-clock timer (forever for Infinity); false when stopped first. */
async function sleepOnClock(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    if (Number.isFinite(ms)) await clock.sleep(ms, signal);
    else await new Promise((_resolve, reject) => signal.addEventListener('abort', reject, { once: true }));
    return true;
  } catch {
    return false;
  }
}

/** LineWriter turns a stream of bytes into log lines (a terminal's `\r\n` ends a line too). */
class LineWriter {
  private readonly decoder = new TextDecoder();
  private partial = '';
  /** The first text written (a start error's message). */
  first = '';

  constructor(
    private readonly log: ((line: LogLine) => void) | undefined,
    private readonly clock: Clock,
  ) {}

  write(data: string | Uint8Array): void {
    const text = typeof data === 'string' ? data : this.decoder.decode(data, { stream: true });
    if (!this.first) this.first = text;
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.emit(line.endsWith('\r') ? line.slice(0, -1) : line);
  }

  flush(): void {
    if (this.partial) this.emit(this.partial);
    this.partial = '';
  }

  private emit(text: string): void {
    this.log?.({ timeMs: this.clock.now(), text });
  }
}
