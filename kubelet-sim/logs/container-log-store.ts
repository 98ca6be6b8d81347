/**
 * ContainerLogStore keeps what simulated containers printed: per container, the current run
 * and the previous one (for `kubectl logs --previous`), each in a bounded buffer.
 *
 * Access-log lines are generated lazily: a running instance knows when its next line is due
 * and `catchUp(now)` writes every line due since, so idle containers cost no timers. A
 * follower (`kubectl logs -f`) gets each line as it is written and is told when the run
 * ends (exit, restart or the pod going away).
 *
 * A run whose main process runs in the simulated userland (`process: true`) logs only what the
 * process writes (output(key)): no made-up start-up, access or exit lines.
 */
import { accessLine, createSeededRng, exitLines, type Rng, seedOf, startupLines } from './log-lines.js';

/** LogLine is one line with the cluster time it was written. */
export interface LogLine {
  timeMs: number;
  text: string;
}

/** ContainerLogKey names a container of one pod incarnation (by uid, not name). */
export interface ContainerLogKey {
  podUid: string;
  container: string;
}

/** LogFollower receives new lines, then `ended()` once when the run is over. */
export interface LogFollower {
  line(line: LogLine): void;
  ended(): void;
}

/** Invariant: `lines.length ≤ capacity`; once `endedMs` is set nothing more is appended. */
interface Instance {
  lines: LogLine[];
  image: string;
  endedMs?: number;
  nextAccessMs: number;
  intervalMs: number;
  rng: Rng;
  followers: Set<LogFollower>;
  /** The run's lines are its main process's output. */
  process?: boolean;
}

interface ContainerLogs {
  current: Instance;
  previous?: Instance;
}

const keyText = (key: ContainerLogKey) => `${key.podUid}/${key.container}`;

/** DEFAULT_LOG_CAPACITY is how many lines each run keeps (older ones are dropped). */
export const DEFAULT_LOG_CAPACITY = 1000;

export class ContainerLogStore {
  private readonly containers = new Map<string, ContainerLogs>();

  constructor(private readonly capacity = DEFAULT_LOG_CAPACITY) {}

  /** started begins a new run (the current one becomes the previous) with start-up lines. */
  started(key: ContainerLogKey, run: { image: string; atMs: number; intervalMs: number; restartCount: number; process?: boolean }): void {
    const known = this.containers.get(keyText(key));
    if (known) this.end(known.current, run.atMs);
    const instance: Instance = {
      lines: [],
      image: run.image,
      nextAccessMs: run.process ? Number.POSITIVE_INFINITY : run.atMs + run.intervalMs,
      intervalMs: run.intervalMs,
      rng: createSeededRng(seedOf(`${keyText(key)}/${run.restartCount}`)),
      followers: new Set(),
      process: run.process,
    };
    const startup = run.process ? [] : startupLines({ image: run.image, container: key.container, atMs: run.atMs });
    for (const text of startup) this.append(instance, { timeMs: run.atMs, text });
    this.containers.set(keyText(key), { current: instance, previous: known?.current });
  }

  /** exited writes the exit lines of the current run and ends it. */
  exited(key: ContainerLogKey, exit: { atMs: number; exitCode: number; reason: string }): void {
    const instance = this.containers.get(keyText(key))?.current;
    if (!instance || instance.endedMs !== undefined) return;
    this.generate(instance, exit.atMs);
    const lines = instance.process ? [] : exitLines({ image: instance.image, ...exit });
    for (const text of lines) this.append(instance, { timeMs: exit.atMs, text });
    this.end(instance, exit.atMs);
  }

  /** output appends lines to the current run, as long as it runs (a later run is not touched);
   * undefined when the container never started. */
  output(key: ContainerLogKey): ((line: LogLine) => void) | undefined {
    const instance = this.containers.get(keyText(key))?.current;
    if (!instance) return undefined;
    return (line) => {
      if (instance.endedMs === undefined) this.append(instance, line);
    };
  }

  /** read returns the run's lines up to nowMs (undefined when it never ran) and whether it still runs. */
  read(key: ContainerLogKey, options: { previous: boolean; nowMs: number }): { lines: readonly LogLine[]; running: boolean } | undefined {
    const logs = this.containers.get(keyText(key));
    const instance = options.previous ? logs?.previous : logs?.current;
    if (!instance) return undefined;
    this.generate(instance, options.nowMs);
    return { lines: [...instance.lines], running: instance.endedMs === undefined };
  }

  /** follow subscribes to the current run; returns the unsubscribe function. A run that
   * already ended calls ended() at once. */
  follow(key: ContainerLogKey, follower: LogFollower): () => void {
    const instance = this.containers.get(keyText(key))?.current;
    if (!instance || instance.endedMs !== undefined) {
      follower.ended();
      return () => undefined;
    }
    instance.followers.add(follower);
    return () => instance.followers.delete(follower);
  }

  /** catchUp writes the access lines due by nowMs in the current run (followers get them). */
  catchUp(key: ContainerLogKey, nowMs: number): void {
    const instance = this.containers.get(keyText(key))?.current;
    if (instance) this.generate(instance, nowMs);
  }

  /** forgetPod drops every container of a pod incarnation and ends its followers. */
  forgetPod(podUid: string, nowMs: number): void {
    for (const [text, logs] of this.containers) {
      if (!text.startsWith(`${podUid}/`)) continue;
      this.end(logs.current, nowMs);
      this.containers.delete(text);
    }
  }

  private generate(instance: Instance, nowMs: number): void {
    const untilMs = Math.min(nowMs, instance.endedMs ?? Number.POSITIVE_INFINITY);
    // A container nobody read for a long time: only the last `capacity` lines would survive.
    const skip = Math.floor((untilMs - instance.nextAccessMs) / instance.intervalMs) - this.capacity;
    if (skip > 0) instance.nextAccessMs += skip * instance.intervalMs;
    while (instance.nextAccessMs <= untilMs) {
      this.append(instance, { timeMs: instance.nextAccessMs, text: accessLine(instance.rng, instance.nextAccessMs) });
      instance.nextAccessMs += instance.intervalMs;
    }
  }

  private append(instance: Instance, line: LogLine): void {
    instance.lines.push(line);
    if (instance.lines.length > this.capacity) instance.lines.shift();
    for (const follower of instance.followers) follower.line(line);
  }

  private end(instance: Instance, atMs: number): void {
    if (instance.endedMs === undefined) instance.endedMs = atMs;
    for (const follower of instance.followers) follower.ended();
    instance.followers.clear();
  }
}
