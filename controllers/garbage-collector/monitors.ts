/**
 * Monitors: one informer per served kind the garbage collector can act on (kube's graph
 * builder monitors). Together their caches are the collector's picture of the cluster: every
 * object, findable by uid, and every dependent, findable by its owner's uid.
 *
 * The set follows discovery: sync() starts informers for kinds that appeared (CRDs added at
 * run time) and stops those whose kinds are no longer served. It never calls the API itself.
 *
 * Built-in kinds are never withdrawn, so their monitors are the process's shared informers
 * (`sharedInformer`): in the controller-manager process one pod cache serves the collector and
 * every other loop. Kinds of other groups (custom resources) get informers of their own, which
 * stop when their kind goes.
 */
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DiscoveredResource } from '../runtime/client/discovery.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import { indexByOwnerUid, OWNER_UID_INDEX } from '../runtime/indexers.js';
import { createInformer } from '../runtime/informer.js';
import type { Clock, DeepReadonly, EventHandlers, Informer, Logger } from '../runtime/types.js';

/** UID_INDEX files every cached object under its own uid. */
export const UID_INDEX = 'uid';

/** GroupResource names a kind independently of its version: `{ group: 'apps', resource: 'deployments' }`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** DEFAULT_IGNORED_RESOURCES are never collected or watched, as in kube-controller-manager:
 * events are numerous, short-lived and never own anything. */
export const DEFAULT_IGNORED_RESOURCES: readonly GroupResource[] = [
  { group: '', resource: 'events' },
  { group: 'events.k8s.io', resource: 'events' },
];

/** MonitoredObject is a cached object with the kind it was listed as. NOTE: `object` is the
 * informer's shared copy: never mutate it. */
export interface MonitoredObject {
  resource: DiscoveredResource;
  object: DeepReadonly<KubeObject>;
}

/** MonitorSetOptions configures a MonitorSet. */
export interface MonitorSetOptions {
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  /** Informer resync period (none when 0 or absent). */
  resyncMs?: number;
  ignoredResources?: readonly GroupResource[];
  /** The process's shared informer for a built-in kind (the manager's); monitors of built-in
   * kinds use it instead of an informer of their own when given. */
  sharedInformer?: (resource: DiscoveredResource) => Informer<KubeObject>;
}

interface Monitor {
  resource: DiscoveredResource;
  informer: Informer<KubeObject>;
  /** Stops an informer of the monitor's own; undefined for a shared one, which the manager runs. */
  stop?: AbortController;
}

/** isBuiltinGroup: Kubernetes' own API groups (the core group, the unqualified ones such as
 * apps and batch, and *.k8s.io); custom resources live in other, dotted groups. */
export function isBuiltinGroup(group: string): boolean {
  return group === '' || !group.includes('.') || group.endsWith('.k8s.io');
}

/** indexByUid files an object under its own uid. */
function indexByUid(object: DeepReadonly<KubeObject>): string[] {
  return object.metadata.uid ? [object.metadata.uid] : [];
}

/** isMonitorable: the collector can watch a kind and delete its objects. */
export function isMonitorable(resource: DiscoveredResource, ignored: readonly GroupResource[]): boolean {
  const verbs = resource.verbs;
  if (!['list', 'watch', 'delete'].every((verb) => verbs.includes(verb))) return false;
  return !ignored.some((i) => i.group === resource.group && i.resource === resource.plural);
}

const monitorKey = (r: Pick<DiscoveredResource, 'group' | 'version' | 'plural'>) => `${r.group}/${r.version}/${r.plural}`;

/**
 * MonitorSet knows the served kinds and keeps one running informer per monitorable kind.
 * Lookups read the caches only. Handlers added with addEventHandlers apply to every informer,
 * present and future; they must only enqueue (see event-handlers.ts).
 */
export class MonitorSet {
  private resources: DiscoveredResource[] = [];
  private readonly monitors = new Map<string, Monitor>();
  private readonly handlers: EventHandlers<KubeObject>[] = [];
  /** Every informer started so far, stopped ones included, so stopped() awaits them all. */
  private readonly running: Promise<void>[] = [];
  private readonly ignored: readonly GroupResource[];

  constructor(private readonly options: MonitorSetOptions) {
    this.ignored = options.ignoredResources ?? DEFAULT_IGNORED_RESOURCES;
  }

  addEventHandlers(handlers: EventHandlers<KubeObject>): void {
    this.handlers.push(handlers);
    for (const monitor of this.monitors.values()) monitor.informer.addEventHandlers(handlers);
  }

  /**
   * sync makes the running informers match `resources` (the latest discovery): it starts one
   * for each new monitorable kind, under `signal`, and stops those of kinds no longer served.
   * Returns the keys (`group/version/plural`) it added and removed.
   */
  sync(resources: readonly DiscoveredResource[], signal: AbortSignal): { added: string[]; removed: string[] } {
    this.resources = [...resources];
    const wanted = new Map(resources.filter((r) => isMonitorable(r, this.ignored)).map((r) => [monitorKey(r), r]));
    const removed = [...this.monitors.keys()].filter((key) => !wanted.has(key));
    for (const key of removed) {
      const monitor = this.monitors.get(key);
      if (monitor?.stop) monitor.stop.abort();
      else if (monitor) for (const handlers of this.handlers) monitor.informer.removeEventHandlers(handlers);
      this.monitors.delete(key);
    }
    const added = [...wanted.keys()].filter((key) => !this.monitors.has(key));
    for (const key of added) this.monitors.set(key, this.startMonitor(wanted.get(key)!, signal));
    return { added, removed };
  }

  /** waitForSync resolves once every current informer has listed (rejects on abort). */
  async waitForSync(signal: AbortSignal): Promise<void> {
    await Promise.all([...this.monitors.values()].map((m) => m.informer.waitForSync(signal)));
  }

  /** stopped resolves once every informer started so far has stopped. */
  async stopped(): Promise<void> {
    await Promise.all(this.running);
  }

  /** monitoredKinds lists the `group/version/plural` of every running informer. */
  monitoredKinds(): string[] {
    return [...this.monitors.keys()];
  }

  /** find returns the cached object with `uid`, whatever its kind. */
  find(uid: string): MonitoredObject | undefined {
    for (const monitor of this.monitors.values()) {
      const [object] = monitor.informer.lister.byIndex(UID_INDEX, uid);
      if (object) return { resource: monitor.resource, object };
    }
    return undefined;
  }

  /** findOfKind returns the cached object with `uid` if it is of `resource`'s kind; undefined
   * also when that kind is not monitored. */
  findOfKind(resource: DiscoveredResource, uid: string): DeepReadonly<KubeObject> | undefined {
    return this.monitors.get(monitorKey(resource))?.informer.lister.byIndex(UID_INDEX, uid)[0];
  }

  /** isMonitored: `resource` has a running informer (its cache can answer findOfKind). */
  isMonitored(resource: DiscoveredResource): boolean {
    return this.monitors.has(monitorKey(resource));
  }

  /** dependentsOf lists every cached object with an ownerReference to `ownerUid`. */
  dependentsOf(ownerUid: string): MonitoredObject[] {
    return [...this.monitors.values()].flatMap((m) => m.informer.lister.byIndex(OWNER_UID_INDEX, ownerUid).map((object) => ({ resource: m.resource, object })));
  }

  /** resourceForKind is the served kind `group`/`kind` at its preferred version, monitored or
   * not; undefined when discovery does not list it. */
  resourceForKind(group: string, kind: string): DiscoveredResource | undefined {
    return this.resources.find((r) => r.group === group && r.kind === kind);
  }

  private startMonitor(resource: DiscoveredResource, signal: AbortSignal): Monitor {
    const { client, clock, logger, resyncMs, sharedInformer } = this.options;
    if (sharedInformer && isBuiltinGroup(resource.group)) {
      const informer = sharedInformer(resource);
      this.prepare(informer);
      return { resource, informer };
    }
    const informer = createInformer<KubeObject>({ client: client.resource(resource), clock, logger, resyncMs });
    this.prepare(informer);
    const stop = new AbortController();
    const done = informer.start(AbortSignal.any([signal, stop.signal])).catch((err: unknown) => {
      logger.error({ err, resource: monitorKey(resource) }, 'garbage collector informer stopped with an error');
    });
    this.running.push(done);
    return { resource, informer, stop };
  }

  /** prepare adds the collector's indexes and handlers to a monitor's informer. */
  private prepare(informer: Informer<KubeObject>): void {
    informer.addIndexer(UID_INDEX, indexByUid);
    informer.addIndexer(OWNER_UID_INDEX, indexByOwnerUid);
    for (const handlers of this.handlers) informer.addEventHandlers(handlers);
  }
}
