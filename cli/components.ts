/**
 * The components of a `kubesim up` cluster as `kubesim status|stop|start` and chaos name
 * them: every supervised process (apiserver, replicaset, deployment, hpa, controller-manager,
 * scheduler, kubelet) and every loop the shared controller-manager process hosts
 * (garbage-collector, namespace, job, ...). A hosted loop is stopped, started or killed inside
 * its process (controllers/runtime/loop-host.ts), over the supervisor's IPC channel; a
 * process is stopped, started or killed by the supervisor.
 */
import type { LoopAction, LoopStatus } from '../controllers/runtime/loop-host.js';
import type { ComponentStatus, Supervisor } from './supervisor.js';

export type ComponentAction = LoopAction;

/** What a kill answers: the status as of the kill, and when the component comes back. */
export type KilledStatus = ComponentStatus & { restartInMs: number };

/** ComponentControl is what the control routes and chaos need of the cluster's components. */
export interface ComponentControl {
  /** Every component's name, processes and hosted loops, in start order. */
  names(): string[];
  status(): Promise<ComponentStatus[]>;
  act(name: string, action: 'kill'): Promise<KilledStatus>;
  act(name: string, action: ComponentAction): Promise<ComponentStatus>;
}

/** IPC method names between the supervisor and a process hosting several loops. */
export const LOOP_IPC = { status: 'loops', act: 'loop' } as const;

/** The component that may not be driven through the API it serves. */
export const API_SERVER_COMPONENT = 'apiserver';

export class ClusterComponents implements ComponentControl {
  /**
   * @param hosts the process each hosted loop lives in (loop name → supervised process name);
   *   loops with a process of their own are not listed.
   */
  constructor(
    private readonly supervisor: Supervisor,
    private readonly hosts: ReadonlyMap<string, string>,
  ) {}

  names(): string[] {
    return this.supervisor.names().flatMap((process) => [process, ...this.loopsOf(process)]);
  }

  async status(): Promise<ComponentStatus[]> {
    const processes = this.supervisor.status();
    const answer: ComponentStatus[] = [];
    for (const process of processes) {
      answer.push({ ...process, process: process.name });
      const loops = this.loopsOf(process.name);
      if (loops.length === 0) continue;
      const reported = await this.hostedStatus(process.name);
      for (const loop of loops) {
        const status = reported.get(loop);
        answer.push({
          name: loop,
          process: process.name,
          pid: process.pid,
          // A loop is only as alive as its process.
          state: process.state === 'running' ? (status?.state ?? 'running') : process.state,
          restarts: status?.restarts ?? 0,
          ...(status?.lastExit && { lastExit: { code: null, signal: status.lastExit.signal, at: status.lastExit.at } }),
        });
      }
    }
    return answer;
  }

  act(name: string, action: 'kill'): Promise<KilledStatus>;
  act(name: string, action: ComponentAction): Promise<ComponentStatus>;
  async act(name: string, action: ComponentAction): Promise<ComponentStatus> {
    const host = this.hosts.get(name);
    if (!host) return this.actOnProcess(name, action);
    const peer = this.supervisor.peer(host);
    if (!peer) throw new Error(`${name} runs inside ${host}, which is not running: start it with \`kubesim start ${host}\``);
    const status = await peer.request<LoopStatus & { restartInMs?: number }>(LOOP_IPC.act, { name, action });
    const pid = this.supervisor.status().find((s) => s.name === host)?.pid;
    return { ...status, process: host, pid, lastExit: status.lastExit && { code: null, signal: status.lastExit.signal, at: status.lastExit.at } };
  }

  private async actOnProcess(name: string, action: ComponentAction): Promise<ComponentStatus> {
    if (!this.supervisor.names().includes(name)) throw new Error(`component "${name}" not found; components: ${this.names().join(', ')}`);
    if (action === 'kill') return { ...this.supervisor.kill(name), process: name };
    const status = action === 'stop' ? await this.supervisor.stop(name) : this.supervisor.start(name);
    return { ...status, process: name };
  }

  private loopsOf(process: string): string[] {
    return [...this.hosts].filter(([, host]) => host === process).map(([loop]) => loop);
  }

  private async hostedStatus(process: string): Promise<Map<string, LoopStatus>> {
    const peer = this.supervisor.peer(process);
    if (!peer) return new Map();
    const loops = await peer.request<LoopStatus[]>(LOOP_IPC.status).catch(() => []);
    return new Map(loops.map((loop) => [loop.name, loop]));
  }
}
