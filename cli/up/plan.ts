/**
 * The processes `kubesim up` runs. The design keeps the ReplicaSet, Deployment and HPA loops,
 * the scheduler and the simulated kubelets in processes of their own — a learner can kill -9
 * any of them — and runs every other loop in one shared process, as kube-controller-manager
 * does (each loop still its own queue, stoppable alone). `--one-process-per-loop` gives every
 * loop its own process.
 */
import { type ControllerName, componentName, isControllerName } from '../../controllers/catalog.js';
import { API_SERVER_COMPONENT } from '../components.js';

/** Loops that always get a process of their own. */
export const DEDICATED_LOOPS: readonly ControllerName[] = ['replicaset', 'deployment', 'hpa'];

/** The shared process's name in `kubesim status`. */
export const CONTROLLER_MANAGER = 'controller-manager';

export interface ComponentPlan {
  controllers: ControllerName[];
  nodes: number;
  scheduler: boolean;
  onePerLoop: boolean;
  /** Arguments every component gets (kubeconfig, log level, seed). */
  common: string[];
  /** Arguments the controller processes get besides (the cluster CA's files; over HTTPS, their
   * own kubeconfig, which overrides the common one). */
  controllerArgs?: string[];
  /** Arguments the scheduler gets besides (over HTTPS, its own kubeconfig). */
  schedulerArgs?: string[];
  /** Arguments the kubelet process gets besides (over HTTPS, the CA's files to give each node a certificate). */
  kubeletArgs?: string[];
}

/** A process to supervise: its name, its `kubesim` arguments, the name it reports activity
 * under, and the loops it hosts when it hosts several. */
export interface PlannedProcess {
  name: string;
  args: string[];
  reportsAs: string;
  hostedLoops: ControllerName[];
}

/** plannedProcesses lists the component processes (the API server aside) in start order. */
export function plannedProcesses(plan: ComponentPlan): PlannedProcess[] {
  const dedicated = plan.controllers.filter((name) => plan.onePerLoop || DEDICATED_LOOPS.includes(name));
  const shared = plan.controllers.filter((name) => !dedicated.includes(name));
  const processes: PlannedProcess[] = dedicated.map((name) => ({
    name,
    args: ['controller', name, ...plan.common, ...(plan.controllerArgs ?? [])],
    reportsAs: componentName([name]),
    hostedLoops: [],
  }));
  if (shared.length > 0) {
    processes.push({
      name: CONTROLLER_MANAGER,
      args: ['controller', shared.join(','), ...plan.common, ...(plan.controllerArgs ?? [])],
      reportsAs: componentName(shared),
      hostedLoops: shared,
    });
  }
  if (plan.scheduler)
    processes.push({ name: 'scheduler', args: ['scheduler', ...plan.common, ...(plan.schedulerArgs ?? [])], reportsAs: 'scheduler', hostedLoops: [] });
  if (plan.nodes > 0) {
    processes.push({
      name: 'kubelet',
      args: ['kubelet', '--nodes', String(plan.nodes), ...plan.common, ...(plan.kubeletArgs ?? [])],
      reportsAs: 'kubelet',
      hostedLoops: [],
    });
  }
  return processes;
}

/** isNodeProcess: the simulated kubelets, which `up` starts beside the API server. */
export function isNodeProcess(process: PlannedProcess): boolean {
  return process.name === 'kubelet';
}

/** loopHosts maps each loop of a shared process to that process's name. */
export function loopHosts(processes: readonly PlannedProcess[]): Map<string, string> {
  return new Map(processes.flatMap((p) => p.hostedLoops.map((loop) => [loop, p.name] as const)));
}

/** reportNameOf is the name a supervised process reports its activity under. */
export function reportNameOf(processes: readonly PlannedProcess[], name: string): string | undefined {
  if (name === API_SERVER_COMPONENT) return undefined;
  return processes.find((p) => p.name === name)?.reportsAs ?? (isControllerName(name) ? componentName([name]) : name);
}
