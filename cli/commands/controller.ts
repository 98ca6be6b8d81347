/** `kubesim controller <name>[,<name>...]`: run built-in control loops as this process, against
 * the cluster in a kubeconfig. `kubesim up` runs the ReplicaSet, Deployment and HPA loops one
 * per process, and the others together in one (the controller-manager). */
import { resolve } from 'node:path';
import { CONTROLLER_NAMES, CONTROLLERS, type ControllerName, componentName, isControllerName } from '../../controllers/catalog.js';
import { runControllers } from '../../controllers/run-controllers.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { processIdentity } from '../../controllers/runtime/leader-election.js';
import { LOG_LEVELS, type LogLevel } from '../../controllers/runtime/logger.js';

import type { LoopAction, LoopHost } from '../../controllers/runtime/loop-host.js';
import { reportLoops, reportName } from '../activity.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { clusterCaFromFlags, clusterSigningFlags, serviceAccountKeyFromFlags } from '../cluster-signing-flags.js';
import { componentClock, componentClockFlags } from '../component-clock.js';
import { IpcPeer } from '../ipc.js';
import { metricsFlags, serveMetrics } from '../metrics-endpoint.js';
import { randomFromFlags, seedFlags } from '../seed.js';
import { serverFlags, withServerFlag } from '../server-flag.js';
import { untilSignal } from '../signals.js';

const LEVEL_NAMES = Object.keys(LOG_LEVELS);

export const controllerFlags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  ...serverFlags,
  ...componentClockFlags,
  ...seedFlags,
  ...clusterSigningFlags,
  ...metricsFlags,
  'use-service-account-credentials': {
    type: 'boolean',
    description: "each loop acts as its own service account in kube-system, holding only its system:controller role (kube-controller-manager's flag)",
  },
  'leader-elect': { type: 'boolean', description: 'act only while holding the component Lease (run several copies safely)' },
  'log-level': { type: 'string', description: `one of ${LEVEL_NAMES.join(', ')}`, default: 'info' },
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim controller <name>[,<name>...] [flags]\n\nControllers:\n${CONTROLLER_NAMES.map(
  (n) => `  ${n.padEnd(20)} ${CONTROLLERS[n].summary}`,
).join('\n')}\n\nFlags:\n${formatFlagHelp(controllerFlags)}`;

function parseNames(text: string | undefined): ControllerName[] {
  if (!text) throw new UsageError(`name the controller(s) to run\n\n${usage}`);
  return text.split(',').map((name) => {
    if (!isControllerName(name)) throw new UsageError(`unknown controller ${JSON.stringify(name)}; known: ${CONTROLLER_NAMES.join(', ')}`);
    return name;
  });
}

/** serveLoopControl lets the supervisor of `kubesim up` stop, start or kill one loop of this
 * process (`kubesim stop namespace` when namespace shares the controller-manager process). */
function serveLoopControl(peer: IpcPeer, loops: LoopHost): void {
  peer.handle('loops', () => loops.status());
  peer.handle('loop', ({ name, action }: { name: string; action: LoopAction }) => loops.act(name, action));
}

export async function controller(argv: string[]): Promise<void> {
  const { flags, positional } = parseFlags(argv, controllerFlags);
  if (flags['help']) {
    console.log(usage);
    return;
  }
  const names = parseNames(positional[0]);
  const random = randomFromFlags(flags, componentName(names));
  const level = String(flags['log-level']);
  if (!LEVEL_NAMES.includes(level)) throw new UsageError(`--log-level must be one of ${LEVEL_NAMES.join(', ')}`);
  const target = withServerFlag(flags, loadKubeconfig(resolve(String(flags['kubeconfig']))));
  const stop = untilSignal();
  const clock = await componentClock(flags, target, stop.signal);
  const peer = process.channel ? new IpcPeer(process) : undefined;
  await serveMetrics(flags, peer, stop.signal);
  await runControllers({
    server: target.server,
    token: target.token,
    tls: target.tls,
    names,
    clock,
    random,
    clusterCa: clusterCaFromFlags(flags),
    serviceAccountKeyFile: serviceAccountKeyFromFlags(flags),
    logLevel: level as LogLevel,
    leaderElect: !!flags['leader-elect'],
    serviceAccountCredentials: !!flags['use-service-account-credentials'],
    signal: stop.signal,
    onStarted: (manager, loops) => {
      const instance = flags['leader-elect'] ? processIdentity() : undefined;
      reportLoops(target, reportName(componentName(names), instance), () => manager.activity(), stop.signal);
      if (peer) serveLoopControl(peer, loops);
    },
  });
}
