/**
 * Event recorders named after one controller rather than the process: kube-controller-manager
 * runs every control loop in one process, yet each writes its events as itself
 * (`deployment-controller`, `replicaset-controller`) — what `kubectl describe` shows under
 * From — and so must a kubesim process running several controllers.
 */
import { createEventRecorder } from './event-recorder.js';
/**
 * createComponentRecorder returns an event recorder whose source.component is `component`,
 * sharing the manager's client, clock and logger, and has the manager flush its pending
 * writes when it stops. Call it before manager.start() (it adds a runnable).
 */
export function createComponentRecorder(manager, component) {
    const recorder = createEventRecorder({ client: manager.client, component, clock: manager.clock, logger: manager.logger });
    manager.add({
        start: (signal) => new Promise((resolve) => {
            const flush = () => void recorder.flush().then(resolve, resolve);
            if (signal.aborted)
                flush();
            else
                signal.addEventListener('abort', flush, { once: true });
        }),
    });
    return recorder;
}
//# sourceMappingURL=component-recorder.js.map