/**
 * The controller builder (controller-runtime's builder, in our own words): one chain names a
 * loop, says which kinds wake which keys, and registers the controller on the manager.
 *
 *   newControllerManagedBy(manager)
 *     .named('cronjob')
 *     .for(cronJobDefinition)                                   // a CronJob wakes itself
 *     .owns(jobDefinition)                                      // a Job wakes the CronJob controlling it
 *     .withIndexer(jobDefinition, CRONJOB_UID_INDEX, indexByCronJobUid)
 *     .workers(5)
 *     .complete(({ lister }) => createCronJobReconciler({ cronJobLister: lister(cronJobDefinition), … }));
 *
 * Every informer is the manager's shared one for its (kind, informer request), so loops in one
 * process still watch each kind once. Which keys an event enqueues:
 *   for      add / update / delete → the object's own key; resyncs too (level-triggered retry)
 *   owns     → the namespace/name of the object's controller reference, when its kind and API
 *              group are the primary's (no uid check: the reconcile reads the cache anyway)
 *   watches  → whatever `map(object)` returns
 * For owns and watches an update enqueues the keys of the old object and of the new one (a
 * changed reference or label wakes the former owner too), and a resync (same resourceVersion)
 * enqueues nothing: an unchanged object cannot point anywhere new.
 * `predicates` drop events before mapping; `hooks` see every event with the keys it enqueues
 * (e.g. to tick off expectations), and run before those keys are queued.
 */
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { AnyKindRef, KindRef, KubeObject } from '../../apiserver/api/resource-definition.js';
import { type Controller, createController } from './controller.js';
import type { InformerRequest, Manager } from './manager.js';
import { keyOf, requestKey } from './reconciler.js';
import type { DeepReadonly, EventHandlers, IndexFunc, Lister, Reconciler, WorkQueue } from './types.js';
import { createWorkQueue } from './workqueue/queue.js';

/** EventPredicates decide which events of a kind count; an absent one lets all through. */
export interface EventPredicates<T> {
  add?(object: DeepReadonly<T>): boolean;
  update?(oldObject: DeepReadonly<T>, newObject: DeepReadonly<T>): boolean;
  delete?(object: DeepReadonly<T>): boolean;
}

/** ignoreDeletes is the predicate set of loops that have nothing to do when an object goes. */
export const ignoreDeletes: EventPredicates<unknown> = { delete: () => false };

/** EventHooks run on every event of a kind, with the keys it enqueues (empty when none). */
export interface EventHooks<T> {
  onAdd?(object: DeepReadonly<T>, keys: readonly string[]): void;
  onUpdate?(oldObject: DeepReadonly<T>, newObject: DeepReadonly<T>, keys: readonly string[]): void;
  onDelete?(object: DeepReadonly<T>, keys: readonly string[]): void;
}

/** SourceOptions refine one watched kind: which shared informer, which events, extra work. */
export interface SourceOptions<T> {
  /** Which shared informer (namespace, selectors, resync); the cluster-wide one when absent. */
  informer?: InformerRequest;
  predicates?: EventPredicates<T>;
  hooks?: EventHooks<T>;
}

/** MapToKeys names the work-queue keys (see requestKey) an object wakes; none is fine. */
export type MapToKeys<T> = (object: DeepReadonly<T>) => Iterable<string>;

/** BuildContext is what a reconciler factory may use: the shared listers and the queue the
 * controller will drain (for reconcilers that enqueue other keys themselves). */
export interface BuildContext {
  lister<T extends KubeObject>(definition: KindRef<T>, request?: InformerRequest): Lister<T>;
  readonly queue: WorkQueue;
}

/** ReconcilerFactory makes the loop's reconciler once its informers exist. */
export type ReconcilerFactory = (context: BuildContext) => Reconciler;

interface Source {
  definition: AnyKindRef;
  options: SourceOptions<KubeObject>;
  /** The keys an object wakes; for `owns` it needs the primary, known only at complete(). */
  mapFor(primary: AnyKindRef): MapToKeys<KubeObject>;
  ignoresResyncs: boolean;
}

interface IndexerSpec {
  definition: AnyKindRef;
  request: InformerRequest | undefined;
  name: string;
  indexFunc: IndexFunc<KubeObject>;
}

/** newControllerManagedBy starts a builder for a controller run by `manager` (see module comment). */
export function newControllerManagedBy(manager: Manager): ControllerBuilder {
  return new ControllerBuilder(manager);
}

/**
 * ControllerBuilder collects a loop's wiring; complete() creates the controller, its shared
 * informers, indexers and handlers, and adds it to the manager. named() and for() are required.
 */
export class ControllerBuilder {
  private name: string | undefined;
  private primary: Source | undefined;
  private readonly secondaries: Source[] = [];
  private readonly indexers: IndexerSpec[] = [];
  private workerCount = 1;

  constructor(private readonly manager: Manager) {}

  /** named names the controller in logs, counters, its queue and its random stream. */
  named(name: string): this {
    this.name = name;
    return this;
  }

  /** for sets the primary kind: each of its events enqueues the object's own key. */
  for<T extends KubeObject>(definition: KindRef<T>, options: SourceOptions<NoInfer<T>> = {}): this {
    if (this.primary) throw new Error(`controller ${this.name ?? '?'}: for() was already called`);
    this.primary = { definition, options, mapFor: () => ownKey, ignoresResyncs: false };
    return this;
  }

  /** owns wakes the primary object controlling an object of `definition` (see module comment). */
  owns<T extends KubeObject>(definition: KindRef<T>, options: SourceOptions<NoInfer<T>> = {}): this {
    this.secondaries.push({ definition, options, mapFor: controllerOwnerKeys, ignoresResyncs: true });
    return this;
  }

  /** watches wakes the keys `map` returns for an object of `definition`. */
  watches<T extends KubeObject>(definition: KindRef<T>, map: MapToKeys<T>, options: SourceOptions<NoInfer<T>> = {}): this {
    // Stored type-erased: a source's map only ever sees objects of its own definition's informer.
    this.secondaries.push({ definition, options: options as SourceOptions<KubeObject>, mapFor: () => map as MapToKeys<KubeObject>, ignoresResyncs: true });
    return this;
  }

  /** withIndexer adds an index to a shared informer (throws at complete() if the name is taken). */
  withIndexer<T extends KubeObject>(definition: KindRef<T>, name: string, indexFunc: IndexFunc<T>, options: { informer?: InformerRequest } = {}): this {
    this.indexers.push({ definition, request: options.informer, name, indexFunc: indexFunc as IndexFunc<KubeObject> });
    return this;
  }

  /** workers sets the concurrent reconciles (integer ≥ 1; default 1). */
  workers(count: number): this {
    this.workerCount = count;
    return this;
  }

  /** complete builds the controller, wires its informers and adds it to the manager (call it
   * before manager.start()). Returns the controller (queue, stats). */
  complete(makeReconciler: ReconcilerFactory): Controller {
    const { manager, name, primary } = this;
    if (name === undefined) throw new Error('controller builder: named() is required');
    if (primary === undefined) throw new Error(`controller ${name}: for() is required`);
    const informerOf = (definition: AnyKindRef, request?: InformerRequest) => manager.informer(definition, request);
    for (const source of [primary, ...this.secondaries]) informerOf(source.definition, source.options.informer);
    for (const { definition, request, name: indexName, indexFunc } of this.indexers) informerOf(definition, request).addIndexer(indexName, indexFunc);
    const queue = createWorkQueue({ clock: manager.clock, name });
    const reconciler = makeReconciler({ queue, lister: (definition, request) => informerOf(definition, request).lister });
    const controller = createController({
      name,
      reconciler,
      queue,
      workers: this.workerCount,
      clock: manager.clock,
      logger: manager.logger,
      random: manager.random.fork(name),
    });
    for (const source of [primary, ...this.secondaries]) {
      informerOf(source.definition, source.options.informer).addEventHandlers(sourceHandlers(source, source.mapFor(primary.definition), queue));
    }
    manager.add(controller);
    return controller;
  }
}

const ownKey: MapToKeys<KubeObject> = (object) => [keyOf(object)];

/** controllerOwnerKeys maps an object to its controller reference's key when that reference
 * names `owner`'s kind in `owner`'s API group. */
export function controllerOwnerKeys(owner: Pick<KindRef, 'group' | 'kind'>): MapToKeys<KubeObject> {
  return (object) => {
    const reference = controllerRefOf(object);
    if (reference === undefined || reference.kind !== owner.kind || apiGroupOf(reference.apiVersion) !== owner.group) return [];
    return [requestKey({ namespace: object.metadata.namespace ?? '', name: reference.name })];
  };
}

/** apiGroupOf reads the group of `group/version` ('' for the core `v1`). */
function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** sourceHandlers turn one source's events into enqueued keys (see the module comment). */
function sourceHandlers(source: Source, map: MapToKeys<KubeObject>, queue: WorkQueue): EventHandlers<KubeObject> {
  const { predicates = {}, hooks = {} } = source.options as SourceOptions<KubeObject>;
  const keysOf = (...objects: DeepReadonly<KubeObject>[]) => [...new Set(objects.flatMap((object) => [...map(object)]))];
  const enqueue = (keys: readonly string[]) => {
    for (const key of keys) queue.add(key);
  };
  return {
    onAdd: (object) => {
      const keys = (predicates.add?.(object) ?? true) ? keysOf(object) : [];
      hooks.onAdd?.(object, keys);
      enqueue(keys);
    },
    onUpdate: (old, cur) => {
      const resync = source.ignoresResyncs && old.metadata.resourceVersion === cur.metadata.resourceVersion;
      const keys = !resync && (predicates.update?.(old, cur) ?? true) ? keysOf(old, cur) : [];
      hooks.onUpdate?.(old, cur, keys);
      enqueue(keys);
    },
    onDelete: (object) => {
      const keys = (predicates.delete?.(object) ?? true) ? keysOf(object) : [];
      hooks.onDelete?.(object, keys);
      enqueue(keys);
    },
  };
}
