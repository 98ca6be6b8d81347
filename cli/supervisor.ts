/**
 * Supervisor runs the cluster's components as child processes and keeps them running, as a
 * kubelet keeps static pods running: a component that exits is restarted after a backoff
 * (1 s doubling to 30 s, reset once it has stayed up for 10 s), and says so. A learner can
 * stop one loop (it stays stopped until started again) and watch the cluster stop converging.
 *
 *   stopped ──start()──► running ──exit──► backoff ──timer──► running
 *      ▲                    │                 │
 *      └──────stop()────────┴─────stop()──────┘
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { IpcPeer } from './ipc.js';
import { METRICS_NOTICE } from './metrics-endpoint.js';

export interface ComponentSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export type ComponentState = 'running' | 'backoff' | 'stopped';

export interface ComponentStatus {
  name: string;
  state: ComponentState;
  /** The supervised process the component runs in (itself, or the shared process hosting a loop). */
  process?: string;
  pid?: number;
  restarts: number;
  lastExit?: { code: number | null; signal: string | null; at: string };
  /** Where the running process serves its /metrics (loop processes announce it). */
  metricsUrl?: string;
}

export interface SupervisorOptions {
  /** Component logs go to <logDir>/<name>.log. */
  logDir: string;
  /** Where notices (restarts, stops) are printed. */
  notify: (message: string) => void;
  /** Called with each line (without its newline) a component writes, after its log file got it. */
  onOutput?: (name: string, line: string) => void;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A component that stayed up this long starts its next backoff from the beginning again. */
  stableAfterMs?: number;
  stopTimeoutMs?: number;
}

interface Component {
  spec: ComponentSpec;
  state: ComponentState;
  child?: ChildProcess;
  startedAt?: number;
  restarts: number;
  backoffMs: number;
  timer?: NodeJS.Timeout;
  lastExit?: ComponentStatus['lastExit'];
  log?: WriteStream;
  /** Requests and notices over the running child's IPC channel. */
  peer?: IpcPeer;
  metricsUrl?: string;
}

export class Supervisor {
  private readonly components = new Map<string, Component>();

  private readonly launchListeners: Array<(name: string, peer: IpcPeer) => void> = [];
  private readonly changeListeners: Array<() => void> = [];

  constructor(private readonly options: SupervisorOptions) {
    mkdirSync(options.logDir, { recursive: true });
  }

  /** add registers a component (stopped); start() runs it. */
  add(spec: ComponentSpec): void {
    this.components.set(spec.name, { spec, state: 'stopped', restarts: 0, backoffMs: this.initialBackoff });
  }

  names(): string[] {
    return [...this.components.keys()];
  }

  status(): ComponentStatus[] {
    return [...this.components.values()].map((c) => ({
      name: c.spec.name,
      state: c.state,
      pid: c.child?.pid,
      restarts: c.restarts,
      lastExit: c.lastExit,
      ...(c.metricsUrl && { metricsUrl: c.metricsUrl }),
    }));
  }

  /** start runs a stopped component now (a component in backoff starts at once). */
  start(name: string): ComponentStatus {
    const component = this.get(name);
    if (component.state === 'running') return this.statusOf(component);
    clearTimeout(component.timer);
    component.backoffMs = this.initialBackoff;
    this.launch(component);
    return this.statusOf(component);
  }

  /** stop terminates a component (SIGTERM, then SIGKILL after the timeout) and keeps it stopped. */
  async stop(name: string): Promise<ComponentStatus> {
    const component = this.get(name);
    clearTimeout(component.timer);
    const child = component.child;
    component.state = 'stopped';
    this.changed();
    if (child && child.exitCode === null && child.signalCode === null) await this.terminate(child);
    return this.statusOf(component);
  }

  /** kill sends SIGKILL to a running component, as a crash would: it stays wanted, so the
   * supervisor restarts it after its backoff. Returns the status as of the kill (with the pid
   * killed) and when it restarts; throws for a component that is not running. */
  kill(name: string): ComponentStatus & { restartInMs: number } {
    const component = this.get(name);
    const child = component.child;
    if (component.state !== 'running' || !child || child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} is not running (${component.state}): nothing to kill`);
    }
    const status = { ...this.statusOf(component), restartInMs: this.nextBackoff(component) };
    child.kill('SIGKILL');
    return status;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.names().map((name) => this.stop(name)));
    for (const component of this.components.values()) component.log?.end();
  }

  private get initialBackoff(): number {
    return this.options.initialBackoffMs ?? 1000;
  }

  private get(name: string): Component {
    const component = this.components.get(name);
    if (!component) throw new Error(`unknown component ${JSON.stringify(name)}; components: ${this.names().join(', ')}`);
    return component;
  }

  private statusOf(component: Component): ComponentStatus {
    return this.status().find((s) => s.name === component.spec.name)!;
  }

  /** onLaunch calls `listener` with a component's name and the IPC peer of its new process
   * each time a process of it starts (before the process can send anything). */
  onLaunch(listener: (name: string, peer: IpcPeer) => void): void {
    this.launchListeners.push(listener);
  }

  /** onChange calls `listener` whenever a component starts, exits or is stopped. */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** peer is the IPC peer of a component's running process, if it runs. */
  peer(name: string): IpcPeer | undefined {
    const component = this.get(name);
    return component.state === 'running' ? component.peer : undefined;
  }

  /** setArgs changes the arguments a component's next process starts with (e.g. the port
   * the API server's first process picked). */
  setArgs(name: string, args: string[]): void {
    this.get(name).spec.args = args;
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  private launch(component: Component): void {
    const { spec } = component;
    component.log ??= this.openLog(spec.name);
    const child = spawn(spec.command, spec.args, { env: { ...process.env, ...spec.env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }); // ipc: the child ends with us (cli/signals.ts)
    const peer = new IpcPeer(child);
    peer.onNotice<{ url: string }>(METRICS_NOTICE, ({ url }) => {
      if (component.child === child) component.metricsUrl = url;
    });
    for (const output of [child.stdout, child.stderr]) if (output) this.capture(spec.name, output, component.log);
    component.child = child;
    component.peer = peer;
    component.state = 'running';
    component.startedAt = Date.now();
    child.on('exit', (code, signal) => this.onExit(component, child, code, signal));
    child.on('error', (err) => this.options.notify(`${spec.name}: failed to start: ${err.message}`));
    for (const listener of this.launchListeners) listener(spec.name, peer);
    this.changed();
  }

  /** openLog opens a component's log file. A file that cannot be written (its folder removed,
   * the disk full) costs that log, said once, never the supervisor and the cluster with it. */
  private openLog(name: string): WriteStream {
    const log = createWriteStream(join(this.options.logDir, `${name}.log`), { flags: 'a' });
    log.once('error', (err) => this.options.notify(`${name}: cannot write its log file: ${err.message}`));
    return log;
  }

  /** capture appends a component's output to its log file line by line (so lines its stdout
   * and stderr write at once never interleave) and hands each line to onOutput. */
  private capture(name: string, output: Readable, log: WriteStream): void {
    createInterface({ input: output, crlfDelay: Infinity }).on('line', (line) => {
      // Output still buffered when stopAll closed the file is dropped.
      if (!log.writableEnded) log.write(`${line}\n`);
      this.options.onOutput?.(name, line);
    });
  }

  private onExit(component: Component, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (component.child !== child) return;
    component.lastExit = { code, signal, at: new Date().toISOString() };
    component.child = undefined;
    component.peer = undefined;
    component.metricsUrl = undefined;
    if (component.state === 'stopped') return this.changed();
    const delayMs = this.nextBackoff(component);
    component.backoffMs = Math.min(delayMs * 2, this.options.maxBackoffMs ?? 30_000);
    component.state = 'backoff';
    component.restarts++;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    this.options.notify(`${component.spec.name} ${how}; restarting in ${(delayMs / 1000).toFixed(1)}s (restart #${component.restarts})`);
    component.timer = setTimeout(() => this.launch(component), delayMs);
    this.changed();
  }

  /** nextBackoff is how long a component that exits now waits before its restart: the
   * initial backoff again once it had stayed up long enough, else its doubled backoff. */
  private nextBackoff(component: Component): number {
    const upMs = Date.now() - (component.startedAt ?? 0);
    return upMs >= (this.options.stableAfterMs ?? 10_000) ? this.initialBackoff : component.backoffMs;
  }

  private async terminate(child: ChildProcess): Promise<void> {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timeout = setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs ?? 5000);
    await exited;
    clearTimeout(timeout);
  }
}
