/** `kubesim scheduler`: run the scheduler as this process against the cluster in a
 * kubeconfig. `kubesim up` can start one such process. */
import { resolve } from 'node:path';
import { createRealClock } from '../../controllers/runtime/clock.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { LOG_LEVELS } from '../../controllers/runtime/logger.js';
import { runScheduler } from '../../scheduler/main.js';
import { formatFlagHelp, parseFlags, UsageError } from '../args.js';
import { untilSignal } from '../signals.js';
const LEVEL_NAMES = Object.keys(LOG_LEVELS);
export const schedulerFlags = {
    kubeconfig: { type: 'string', description: 'kubeconfig of the cluster', default: process.env['KUBECONFIG'] ?? '.kubesim/kubeconfig' },
    speed: { type: 'number', description: 'cluster clock speed factor (must match the cluster)', default: 1 },
    'clock-origin': { type: 'number', description: 'cluster clock origin, ms since the epoch (set by kubesim up)' },
    seed: { type: 'number', description: 'seed of the tie-break between equally scored nodes', default: 0 },
    'log-level': { type: 'string', description: `one of ${LEVEL_NAMES.join(', ')}`, default: 'info' },
    help: { type: 'boolean', description: 'show this help' },
};
const usage = `Usage: kubesim scheduler [flags]\n\nPlaces unscheduled pods on nodes (filter, score, bind), as kube-scheduler does.\n\nFlags:\n${formatFlagHelp(schedulerFlags)}`;
export async function scheduler(argv) {
    const { flags, positional } = parseFlags(argv, schedulerFlags);
    if (flags['help']) {
        console.log(usage);
        return;
    }
    if (positional.length > 0)
        throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}\n\n${usage}`);
    const level = String(flags['log-level']);
    if (!LEVEL_NAMES.includes(level))
        throw new UsageError(`--log-level must be one of ${LEVEL_NAMES.join(', ')}`);
    const seed = Number(flags['seed']);
    if (!Number.isInteger(seed))
        throw new UsageError('--seed must be an integer');
    const target = loadKubeconfig(resolve(String(flags['kubeconfig'])));
    const clock = createRealClock({ speed: Number(flags['speed']), originMs: flags['clock-origin'] });
    const stop = untilSignal();
    await runScheduler({ server: target.server, token: target.token, clock, logLevel: level, seed, signal: stop.signal });
}
//# sourceMappingURL=scheduler.js.map