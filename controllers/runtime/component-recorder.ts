/**
 * Event recorders named after one controller rather than the process: kube-controller-manager
 * runs every control loop in one process, yet each writes its events as itself
 * (`deployment-controller`, `replicaset-controller`) — what `kubectl describe` shows under
 * From — and so must a kubesim process running several controllers.
 */
import { createEventRecorder } from './event-recorder.js';
import type { Manager } from './manager.js';
import type { EventRecorder } from './types.js';

/**
 * createComponentRecorder returns an event recorder whose source.component is `component`,
 * sharing the manager's client, clock and logger, and has the manager flush its pending
 * writes when it stops. Call it before manager.start() (it adds a runnable).
 */
export function createComponentRecorder(manager: Manager, component: string): EventRecorder {
  const recorder = createEventRecorder({
    client: manager.client,
    component,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(`events:${component}`),
  });
  manager.add({
    start: (signal) =>
      new Promise<void>((resolve) => {
        const flush = () => void recorder.flush().then(resolve, resolve);
        if (signal.aborted) flush();
        else signal.addEventListener('abort', flush, { once: true });
      }),
  });
  return recorder;
}
