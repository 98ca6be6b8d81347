import { indexByOwnerUid, OWNER_UID_INDEX } from '../runtime/indexers.js';
import { createInformer } from '../runtime/informer.js';
/** UID_INDEX files every cached object under its own uid. */
export const UID_INDEX = 'uid';
/** DEFAULT_IGNORED_RESOURCES are never collected or watched, as in kube-controller-manager:
 * events are numerous, short-lived and never own anything. */
export const DEFAULT_IGNORED_RESOURCES = [
    { group: '', resource: 'events' },
    { group: 'events.k8s.io', resource: 'events' },
];
/** isMonitorable: the collector can watch a kind and delete its objects. */
export function isMonitorable(resource, ignored) {
    const verbs = resource.verbs;
    if (!['list', 'watch', 'delete'].every((verb) => verbs.includes(verb)))
        return false;
    return !ignored.some((i) => i.group === resource.group && i.resource === resource.plural);
}
const monitorKey = (r) => `${r.group}/${r.version}/${r.plural}`;
/**
 * MonitorSet knows the served kinds and keeps one running informer per monitorable kind.
 * Lookups read the caches only. Handlers added with addEventHandlers apply to every informer,
 * present and future; they must only enqueue (see event-handlers.ts).
 */
export class MonitorSet {
    options;
    resources = [];
    monitors = new Map();
    handlers = [];
    /** Every informer started so far, stopped ones included, so stopped() awaits them all. */
    running = [];
    ignored;
    constructor(options) {
        this.options = options;
        this.ignored = options.ignoredResources ?? DEFAULT_IGNORED_RESOURCES;
    }
    addEventHandlers(handlers) {
        this.handlers.push(handlers);
        for (const monitor of this.monitors.values())
            monitor.informer.addEventHandlers(handlers);
    }
    /**
     * sync makes the running informers match `resources` (the latest discovery): it starts one
     * for each new monitorable kind, under `signal`, and stops those of kinds no longer served.
     * Returns the keys (`group/version/plural`) it added and removed.
     */
    sync(resources, signal) {
        this.resources = [...resources];
        const wanted = new Map(resources.filter((r) => isMonitorable(r, this.ignored)).map((r) => [monitorKey(r), r]));
        const removed = [...this.monitors.keys()].filter((key) => !wanted.has(key));
        for (const key of removed) {
            this.monitors.get(key)?.stop.abort();
            this.monitors.delete(key);
        }
        const added = [...wanted.keys()].filter((key) => !this.monitors.has(key));
        for (const key of added)
            this.monitors.set(key, this.startMonitor(wanted.get(key), signal));
        return { added, removed };
    }
    /** waitForSync resolves once every current informer has listed (rejects on abort). */
    async waitForSync(signal) {
        await Promise.all([...this.monitors.values()].map((m) => m.informer.waitForSync(signal)));
    }
    /** stopped resolves once every informer started so far has stopped. */
    async stopped() {
        await Promise.all(this.running);
    }
    /** monitoredKinds lists the `group/version/plural` of every running informer. */
    monitoredKinds() {
        return [...this.monitors.keys()];
    }
    /** find returns the cached object with `uid`, whatever its kind. */
    find(uid) {
        for (const monitor of this.monitors.values()) {
            const [object] = monitor.informer.lister.byIndex(UID_INDEX, uid);
            if (object)
                return { resource: monitor.resource, object };
        }
        return undefined;
    }
    /** findOfKind returns the cached object with `uid` if it is of `resource`'s kind; undefined
     * also when that kind is not monitored. */
    findOfKind(resource, uid) {
        return this.monitors.get(monitorKey(resource))?.informer.lister.byIndex(UID_INDEX, uid)[0];
    }
    /** isMonitored: `resource` has a running informer (its cache can answer findOfKind). */
    isMonitored(resource) {
        return this.monitors.has(monitorKey(resource));
    }
    /** dependentsOf lists every cached object with an ownerReference to `ownerUid`. */
    dependentsOf(ownerUid) {
        return [...this.monitors.values()].flatMap((m) => m.informer.lister.byIndex(OWNER_UID_INDEX, ownerUid).map((object) => ({ resource: m.resource, object })));
    }
    /** resourceForKind is the served kind `group`/`kind` at its preferred version, monitored or
     * not; undefined when discovery does not list it. */
    resourceForKind(group, kind) {
        return this.resources.find((r) => r.group === group && r.kind === kind);
    }
    startMonitor(resource, signal) {
        const { client, clock, logger, resyncMs } = this.options;
        const informer = createInformer({ client: client.resource(resource), clock, logger, resyncMs });
        informer.addIndexer(UID_INDEX, (object) => (object.metadata.uid ? [object.metadata.uid] : []));
        informer.addIndexer(OWNER_UID_INDEX, indexByOwnerUid);
        for (const handlers of this.handlers)
            informer.addEventHandlers(handlers);
        const stop = new AbortController();
        const done = informer.start(AbortSignal.any([signal, stop.signal])).catch((err) => {
            logger.error({ err, resource: monitorKey(resource) }, 'garbage collector informer stopped with an error');
        });
        this.running.push(done);
        return { resource, informer, stop };
    }
}
//# sourceMappingURL=monitors.js.map