/** `kubesim controller <name>[,<name>...]`: run built-in control loops as this process, against
 * the cluster in a kubeconfig. `kubesim up` starts one such process per loop. */
import { resolve } from 'node:path';
import { CONTROLLER_NAMES, CONTROLLERS, isControllerName } from '../../controllers/catalog.js';
import { runControllers } from '../../controllers/run-controllers.js';
import { createRealClock } from '../../controllers/runtime/clock.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { LOG_LEVELS } from '../../controllers/runtime/logger.js';
const LEVEL_NAMES = Object.keys(LOG_LEVELS);
import { formatFlagHelp, parseFlags, UsageError } from '../args.js';
import { untilSignal } from '../signals.js';
export const controllerFlags = {
    kubeconfig: { type: 'string', description: 'kubeconfig of the cluster', default: process.env['KUBECONFIG'] ?? '.kubesim/kubeconfig' },
    speed: { type: 'number', description: 'cluster clock speed factor (must match the cluster)', default: 1 },
    'clock-origin': { type: 'number', description: 'cluster clock origin, ms since the epoch (set by kubesim up)' },
    'leader-elect': { type: 'boolean', description: 'act only while holding the component Lease (run several copies safely)' },
    'log-level': { type: 'string', description: `one of ${LEVEL_NAMES.join(', ')}`, default: 'info' },
    help: { type: 'boolean', description: 'show this help' },
};
const usage = `Usage: kubesim controller <name>[,<name>...] [flags]\n\nControllers:\n${CONTROLLER_NAMES.map((n) => `  ${n.padEnd(20)} ${CONTROLLERS[n].summary}`).join('\n')}\n\nFlags:\n${formatFlagHelp(controllerFlags)}`;
function parseNames(text) {
    if (!text)
        throw new UsageError(`name the controller(s) to run\n\n${usage}`);
    return text.split(',').map((name) => {
        if (!isControllerName(name))
            throw new UsageError(`unknown controller ${JSON.stringify(name)}; known: ${CONTROLLER_NAMES.join(', ')}`);
        return name;
    });
}
export async function controller(argv) {
    const { flags, positional } = parseFlags(argv, controllerFlags);
    if (flags['help']) {
        console.log(usage);
        return;
    }
    const names = parseNames(positional[0]);
    const level = String(flags['log-level']);
    if (!LEVEL_NAMES.includes(level))
        throw new UsageError(`--log-level must be one of ${LEVEL_NAMES.join(', ')}`);
    const target = loadKubeconfig(resolve(String(flags['kubeconfig'])));
    const clock = createRealClock({ speed: Number(flags['speed']), originMs: flags['clock-origin'] });
    const stop = untilSignal();
    await runControllers({ server: target.server, token: target.token, names, clock, logLevel: level, leaderElect: !!flags['leader-elect'], signal: stop.signal });
}
//# sourceMappingURL=controller.js.map