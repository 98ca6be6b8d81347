/**
 * runControllers runs one or more built-in control loops in this process against an API
 * server, until `signal` aborts. One manager (shared informers, one event recorder) serves
 * them all; with leader election, only the holder of the Lease acts.
 */
import { hostname } from 'node:os';
import { CONTROLLERS } from './catalog.js';
import { createRealClock } from './runtime/clock.js';
import { createKubeClient } from './runtime/client/http-client.js';
import { createLogger } from './runtime/logger.js';
import { createManager } from './runtime/manager.js';
/** componentName names a process running `names` (events' source, logs, the Lease). */
export function componentName(names) {
    return names.length === 1 ? `${names[0]}-controller` : 'kubesim-controller-manager';
}
export async function runControllers(options) {
    const component = componentName(options.names);
    const clock = options.clock ?? createRealClock();
    const logger = options.logger ?? createLogger({ component, level: options.logLevel ?? 'info', clock });
    const client = createKubeClient({ server: options.server, token: options.token, userAgent: `kubesim-${component}/0.1`, logger });
    const identity = `${hostname()}_${process.pid}`;
    const manager = createManager({
        client,
        clock,
        logger,
        component,
        leaderElection: options.leaderElect ? { name: `kubesim-${component}`, identity } : undefined,
    });
    for (const name of options.names)
        CONTROLLERS[name].register(manager);
    logger.info({ controllers: options.names, leaderElect: !!options.leaderElect }, 'starting');
    try {
        await manager.start(options.signal);
    }
    finally {
        client.close();
        logger.info({}, 'stopped');
    }
}
//# sourceMappingURL=run-controllers.js.map