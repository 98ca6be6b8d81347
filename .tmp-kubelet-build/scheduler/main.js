/**
 * runScheduler runs the scheduler as a process against an API server until `signal` aborts:
 * a manager (shared informers, the event recorder as `default-scheduler`) with the scheduler
 * registered. `kubesim scheduler` calls it; tests may too.
 */
import { createKubeClient } from '../controllers/runtime/client/http-client.js';
import { createRealClock } from '../controllers/runtime/clock.js';
import { createLogger } from '../controllers/runtime/logger.js';
import { createManager } from '../controllers/runtime/manager.js';
import { DEFAULT_SCHEDULER_NAME } from './event-handlers.js';
import { registerScheduler } from './scheduler.js';
/** runScheduler resolves once the scheduler has stopped (after `signal` aborted); it rejects
 * only if the manager fails. */
export async function runScheduler(options) {
    const component = DEFAULT_SCHEDULER_NAME;
    const clock = options.clock ?? createRealClock();
    const logger = options.logger ?? createLogger({ component, level: options.logLevel ?? 'info', clock });
    const client = createKubeClient({ server: options.server, token: options.token, userAgent: `kubesim-scheduler/0.1`, logger });
    const manager = createManager({ client, clock, logger, component });
    const scheduler = registerScheduler(manager, { seed: options.seed });
    options.onStarted?.(scheduler);
    logger.info({ seed: options.seed ?? 0 }, 'starting');
    try {
        await manager.start(options.signal);
    }
    finally {
        client.close();
        logger.info({}, 'stopped');
    }
}
//# sourceMappingURL=main.js.map