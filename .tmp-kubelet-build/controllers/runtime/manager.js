/**
 * The manager (controller-runtime's Manager): the one object a component's main.ts builds.
 * It owns the client, the shared informers and the event recorder, and runs the component's
 * controllers once the caches are warm (and, when configured, once it leads).
 *
 *   start(signal):
 *     start every informer ─► wait for all to sync ─► [win the Lease] ─► start runnables
 *     signal aborts / leadership lost / a runnable fails ─► abort all ─► await all ─► resolve
 *
 * A lost leadership ends start() (resolved, not rejected) after everything stopped, so the
 * process can exit and be restarted — as kube-controller-manager does — rather than run on
 * without the lock.
 */
import { setMaxListeners } from 'node:events';
import { createEventRecorder } from './event-recorder.js';
import { createInformer } from './informer.js';
import { createLeaderElector } from './leader-election.js';
import { isAbortError } from './clock.js';
/** createManager returns a Manager (see Manager). */
export function createManager(options) {
    return new ComponentManager(options);
}
class ComponentManager {
    options;
    client;
    clock;
    logger;
    informers = new Map();
    runnables = [];
    /** Promises of started informers; informers created after start() join it. */
    running = [];
    eventRecorder;
    stopAll;
    constructor(options) {
        this.options = options;
        this.client = options.client;
        this.clock = options.clock;
        this.logger = options.logger;
    }
    informer(def, request = {}) {
        const key = [def.group, def.version, def.plural, request.namespace ?? '', request.labelSelector ?? '', request.fieldSelector ?? ''].join('|');
        let informer = this.informers.get(key);
        if (!informer) {
            const { namespace, labelSelector, fieldSelector, resyncMs } = request;
            informer = createInformer({ client: this.client.resource(def), namespace, labelSelector, fieldSelector, resyncMs, clock: this.clock, logger: this.logger });
            this.informers.set(key, informer);
            if (this.stopAll)
                this.run(informer, this.stopAll.signal);
        }
        return informer;
    }
    recorder() {
        this.eventRecorder ??= createEventRecorder({ client: this.client, component: this.options.component, clock: this.clock, logger: this.logger });
        return this.eventRecorder;
    }
    add(runnable) {
        if (this.stopAll)
            throw new Error('manager.add() after start(): add runnables before starting the manager');
        this.runnables.push(runnable);
    }
    async start(signal) {
        if (this.stopAll)
            throw new Error('manager already started');
        const stopAll = (this.stopAll = new AbortController());
        // Every informer, runnable and worker listens on this one signal: many listeners is the
        // design here, not a leak, so Node's default warning (at 11) does not apply.
        setMaxListeners(0, stopAll.signal);
        const onAbort = () => stopAll.abort(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        if (signal.aborted)
            stopAll.abort(signal.reason);
        let failure;
        try {
            for (const informer of this.informers.values())
                this.run(informer, stopAll.signal);
            if (await this.waitForCaches(stopAll.signal))
                failure = await this.runRunnables(stopAll);
        }
        finally {
            stopAll.abort();
            signal.removeEventListener('abort', onAbort);
            await Promise.all(this.running);
            await this.eventRecorder?.flush();
            this.logger.info({}, 'manager stopped');
        }
        if (failure !== undefined)
            throw failure;
    }
    run(informer, signal) {
        this.running.push(informer.start(signal).catch((err) => this.logger.error({ err }, 'informer stopped with an error')));
    }
    /** waitForCaches resolves true once every informer synced, false if stopped first. */
    async waitForCaches(signal) {
        try {
            await Promise.all([...this.informers.values()].map((informer) => informer.waitForSync(signal)));
            this.logger.info({ informers: this.informers.size }, 'caches synced');
            return true;
        }
        catch (err) {
            if (isAbortError(err))
                return false;
            throw err;
        }
    }
    /** runRunnables runs the runnables (under leader election when configured) until they
     * stop; returns the first runnable failure, if any. */
    async runRunnables(stopAll) {
        const election = this.options.leaderElection;
        if (!election) {
            const failure = await this.runAll(stopAll, stopAll.signal);
            // Runnables that finish early (one-shot jobs) do not stop the manager; the signal does.
            await aborted(stopAll.signal);
            return failure;
        }
        let failure;
        const elector = createLeaderElector({ ...election, client: this.client, clock: this.clock, logger: this.logger });
        await elector.run(stopAll.signal, {
            onStartedLeading: async (leaderSignal) => {
                failure = await this.runAll(stopAll, leaderSignal);
            },
        });
        return failure;
    }
    /** runAll starts every runnable with `signal`; the first to fail stops the others (and the
     * manager). Resolves with that failure once all have stopped. */
    async runAll(stopAll, signal) {
        let failure;
        this.logger.info({ runnables: this.runnables.length }, 'starting runnables');
        await Promise.all(this.runnables.map((runnable) => runnable.start(signal).catch((err) => {
            if (signal.aborted && isAbortError(err))
                return;
            this.logger.error({ err }, 'runnable failed; stopping the manager');
            failure ??= err;
            stopAll.abort(err);
        })));
        return failure;
    }
}
/** aborted resolves once `signal` has aborted. */
function aborted(signal) {
    if (signal.aborted)
        return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
//# sourceMappingURL=manager.js.map