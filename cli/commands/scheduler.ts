/** `kubesim scheduler`: run the scheduler as this process against the cluster in a
 * kubeconfig. `kubesim up` can start one such process. */
import { resolve } from 'node:path';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { processIdentity } from '../../controllers/runtime/leader-election.js';
import { LOG_LEVELS, type LogLevel } from '../../controllers/runtime/logger.js';
import { runScheduler } from '../../scheduler/main.js';
import { reportLoops, reportName } from '../activity.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { componentClock, componentClockFlags } from '../component-clock.js';
import { IpcPeer } from '../ipc.js';
import { metricsFlags, serveMetrics } from '../metrics-endpoint.js';
import { randomFromFlags, seedFlags } from '../seed.js';
import { serverFlags, withServerFlag } from '../server-flag.js';
import { untilSignal } from '../signals.js';

const LEVEL_NAMES = Object.keys(LOG_LEVELS);

export const schedulerFlags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  ...serverFlags,
  ...componentClockFlags,
  // The tie-break between equally scored nodes is drawn from it too (0 without a seed).
  ...seedFlags,
  ...metricsFlags,
  'leader-elect': { type: 'boolean', description: 'schedule only while holding the Lease kube-system/kube-scheduler (run several copies safely)' },
  'log-level': { type: 'string', description: `one of ${LEVEL_NAMES.join(', ')}`, default: 'info' },
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim scheduler [flags]\n\nPlaces unscheduled pods on nodes (filter, score, bind), as kube-scheduler does.\n\nFlags:\n${formatFlagHelp(schedulerFlags)}`;

export async function scheduler(argv: string[]): Promise<void> {
  const { flags, positional } = parseFlags(argv, schedulerFlags);
  if (flags['help']) {
    console.log(usage);
    return;
  }
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}\n\n${usage}`);
  const level = String(flags['log-level']);
  if (!LEVEL_NAMES.includes(level)) throw new UsageError(`--log-level must be one of ${LEVEL_NAMES.join(', ')}`);
  const random = randomFromFlags(flags, 'default-scheduler');
  const target = withServerFlag(flags, loadKubeconfig(resolve(String(flags['kubeconfig']))));
  const stop = untilSignal();
  const clock = await componentClock(flags, target, stop.signal);
  await serveMetrics(flags, process.channel ? new IpcPeer(process) : undefined, stop.signal);
  await runScheduler({
    server: target.server,
    token: target.token,
    tls: target.tls,
    clock,
    logLevel: level as LogLevel,
    random,
    leaderElect: !!flags['leader-elect'],
    signal: stop.signal,
    onStarted: (scheduler) => {
      const instance = flags['leader-elect'] ? processIdentity() : undefined;
      reportLoops(target, reportName('scheduler', instance), () => [scheduler.activity()], stop.signal);
    },
  });
}
