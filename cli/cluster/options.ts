/** The options of startCluster and how they are checked (a wrong option fails at once, naming it). */

import { clockSpeedProblem } from '../../apiserver/api/machinery/clock-bounds.js';
import type { AuditOptions } from '../../apiserver/audit/register.js';
import { parseStoreSpec, type StoreSpec } from '../../apiserver/store-spec.js';
import { CONTROLLER_NAMES, type ControllerName, isControllerName } from '../../controllers/catalog.js';
import type { LogLevel } from '../../controllers/runtime/logger.js';
import type { UserlandFactory } from '../../kubelet-sim/userland/contract.js';

/** ClockOption: `real` (wall time), `virtual` (frozen until advanced), or a speed factor. */
export type ClockOption = 'real' | 'virtual' | { speed: number };

export interface StartClusterOptions {
  /** Built-in loops to run: all (default), none, or a list (see CONTROLLER_NAMES). */
  controllers?: 'all' | 'none' | readonly ControllerName[];
  /** Simulated nodes (kubelet-sim in this process). Default 1; 0 for none. */
  nodes?: number;
  /** Run the scheduler. Default true. */
  scheduler?: boolean;
  /** Cluster clock mode. Default 'real'. */
  clock?: ClockOption;
  /** Cluster time at start (ms since the epoch or RFC 3339). Default: now. */
  startTime?: number | string;
  /** Deterministic mode: uids, generated names, IPs, tie-breaks and jitter come from this seed. */
  seed?: number;
  /** Log level of every in-process component. Default 'silent'. */
  logLevel?: LogLevel;
  /** Plain HTTP with no authentication and everything allowed (as `kubesim up --insecure-http`).
   * Default false: HTTPS with the cluster CA, client certificates, RBAC. */
  insecure?: boolean;
  /** Each control loop authenticates with its own service-account token (kube-system/<loop's
   * service account>, holding only its system:controller:* role), as under `kubesim up`
   * (kube-controller-manager's --use-service-account-credentials). Default false: the loops
   * share the system:kube-controller-manager certificate, because creating 21 service
   * accounts and requesting their tokens adds ~13 % to a start (docs/security.md). Ignored
   * with `insecure` (plain HTTP authenticates nobody). */
  serviceAccountCredentials?: boolean;
  /** The simulated containers' userland (exec, attach, port-forward); kubesim's own
   * (kubelet-sim/userland/) when absent. */
  userland?: UserlandFactory;
  /** Audit logging, as kube-apiserver's --audit-policy-file and --audit-log-path (docs/security.md). */
  audit?: AuditOptions;
  /** Where the cluster is kept, as `kubesim up --store` takes it ('sqlite', 'etcd',
   * 'etcd://host:port,…') or parsed (apiserver/store-spec.ts). Default: SQLite in memory. */
  store?: string | StoreSpec;
}

export interface ResolvedOptions {
  controllers: ControllerName[];
  nodes: number;
  scheduler: boolean;
  mode: 'real' | 'virtual';
  speed: number;
  startMs: number | undefined;
  seed: number | undefined;
  logLevel: LogLevel;
  insecure: boolean;
  serviceAccountCredentials: boolean;
  userland: UserlandFactory | undefined;
  audit: AuditOptions | undefined;
  store: StoreSpec | undefined;
}

/** resolveOptions applies defaults and throws TypeError naming the first bad option. */
export function resolveOptions(options: StartClusterOptions): ResolvedOptions {
  const nodes = options.nodes ?? 1;
  if (!Number.isInteger(nodes) || nodes < 0) throw new TypeError(`startCluster: nodes must be a whole number ≥ 0, got ${String(nodes)}`);
  const clock = options.clock ?? 'real';
  const speed = typeof clock === 'object' ? clock.speed : 1;
  const speedProblem = clockSpeedProblem(speed);
  if (speedProblem) throw new TypeError(`startCluster: clock.speed ${speedProblem}, got ${String(speed)}`);
  if (typeof clock === 'string' && clock !== 'real' && clock !== 'virtual') {
    throw new TypeError(`startCluster: clock must be 'real', 'virtual' or { speed }, got ${JSON.stringify(clock)}`);
  }
  if (options.seed !== undefined && !Number.isInteger(options.seed)) throw new TypeError(`startCluster: seed must be an integer, got ${String(options.seed)}`);
  return {
    controllers: controllerList(options.controllers ?? 'all'),
    nodes,
    scheduler: options.scheduler ?? true,
    mode: clock === 'virtual' ? 'virtual' : 'real',
    speed,
    startMs: startTimeOf(options.startTime),
    seed: options.seed,
    logLevel: options.logLevel ?? 'silent',
    insecure: options.insecure ?? false,
    serviceAccountCredentials: !(options.insecure ?? false) && (options.serviceAccountCredentials ?? false),
    userland: options.userland,
    audit: options.audit,
    store: storeOf(options.store),
  };
}

function storeOf(value: string | StoreSpec | undefined): StoreSpec | undefined {
  if (typeof value !== 'string') return value;
  try {
    return parseStoreSpec(value);
  } catch (err) {
    throw new TypeError(`startCluster: store: ${(err as Error).message}`);
  }
}

function controllerList(value: 'all' | 'none' | readonly ControllerName[]): ControllerName[] {
  if (value === 'all') return [...CONTROLLER_NAMES];
  if (value === 'none') return [];
  const unknown = value.filter((name) => !isControllerName(name));
  if (unknown.length) throw new TypeError(`startCluster: unknown controller(s) ${unknown.join(', ')}; known: ${CONTROLLER_NAMES.join(', ')}`);
  return [...value];
}

function startTimeOf(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new TypeError(`startCluster: startTime must be ms since the epoch or an RFC 3339 time, got ${JSON.stringify(value)}`);
  return ms;
}
