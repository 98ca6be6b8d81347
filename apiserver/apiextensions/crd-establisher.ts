/**
 * The CRD controllers of apiextensions-apiserver, run inside the API server over the store's
 * watch: naming (NamesAccepted, acceptedNames), establishing (Established), serving (the live
 * Registry: routes, discovery, OpenAPI and Tables follow at once) and the finalizer (custom
 * resources of a deleted CRD). Level-based: every event on a CRD re-syncs that CRD from the
 * store; the writes it makes come back as events and settle as no-ops.
 *
 * At start it serves every CRD already in the store (a reopened data dir, a restored snapshot)
 * before the server takes requests.
 */
import type { StoreWatch } from '../../store/index.js';
import { CRD_STORAGE_RESOURCE, type CustomResourceDefinition } from '../api/apiextensions/index.js';
import { deepEqual } from '../api/deep-equal.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { RegistryContext } from '../registry/context.js';
import { findCondition, isConditionTrue, isEquivalent, setCondition } from './crd-conditions.js';
import { storageVersionDefinition } from './crd-definitions.js';
import { finalizeCrd } from './crd-finalizer.js';
import { decideNames, namesSettled, takenNames } from './crd-names.js';
import { ServedCrds } from './crd-serving.js';
import { listCrds, readCrd, updateCrd } from './crd-writes.js';

/** Where the controllers report problems (fastify's logger fits). */
export interface CrdControllerLogger {
  error(details: object, message: string): void;
}

export interface CrdControllerOptions {
  ctx: RegistryContext;
  logger?: CrdControllerLogger;
  /** Delay before a CRD whose sync failed, or whose instances are still going, is synced
   * again (kube-apiserver's finalizer polls every 5 s; default 1 s). */
  retryMs?: number;
}

export interface CrdController {
  /** Stops watching and cancels pending retries. Idempotent. */
  stop(): void;
}

/** startCrdController serves the stored CRDs (synchronously) and keeps following them. */
export function startCrdController(options: CrdControllerOptions): CrdController {
  const controller = new CrdSync(options);
  controller.start();
  return { stop: () => controller.stop() };
}

class CrdSync {
  private readonly ctx: RegistryContext;
  private readonly served: ServedCrds;
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private watch: StoreWatch | undefined;
  private stopped = false;

  constructor(private readonly options: CrdControllerOptions) {
    this.ctx = options.ctx;
    this.served = new ServedCrds(options.ctx.registry);
  }

  start(): void {
    const { crds, revision } = listCrds(this.ctx);
    for (const crd of crds) this.sync(crd.metadata.name ?? '');
    this.follow(revision);
  }

  stop(): void {
    this.stopped = true;
    this.watch?.close();
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
  }

  /** follow watches CRDs from `revision`; a watch cut off as too slow re-lists. */
  private follow(revision: number): void {
    let watch: StoreWatch;
    try {
      watch = this.ctx.store.watch({ resource: CRD_STORAGE_RESOURCE, afterRevision: revision });
    } catch (err) {
      if (!this.stopped) this.options.logger?.error({ err }, 'CRD watch could not start');
      return;
    }
    this.watch = watch;
    void (async () => {
      for await (const message of watch) {
        if (message.type === 'BOOKMARK') continue;
        this.sync(message.ref.name);
      }
      if (!this.stopped && watch.endReason === 'too-slow') this.start();
    })();
  }

  /** sync brings one CRD's status and serving in line with the store. Never throws. */
  private sync(name: string): void {
    if (this.stopped) return;
    this.cancelRetry(name);
    try {
      this.reconcile(name);
    } catch (err) {
      this.options.logger?.error({ err, crd: name }, 'CRD sync failed');
      this.retryLater(name);
    }
  }

  private reconcile(name: string): void {
    let crd = readCrd(this.ctx, name);
    if (!crd) {
      this.served.unserve(name);
      this.requeueGroup(name, undefined);
      return;
    }
    if (crd.metadata.deletionTimestamp) {
      if (isConditionTrue(crd, 'Established')) this.served.serve(crd, true);
      const def = this.served.definitionOf(name) ?? storageVersionDefinition(crd);
      if (finalizeCrd(this.ctx, crd, def) === 'waiting') this.retryLater(name);
      return;
    }
    crd = this.acceptNames(crd);
    if (!crd) return;
    if (isConditionTrue(crd, 'NamesAccepted') && !isConditionTrue(crd, 'Established')) {
      // Serve first, then announce: a client that sees Established can use the resource.
      this.served.serve(crd, false);
      crd = updateCrd(this.ctx, name, 'status', (c) =>
        setCondition(c, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, this.now()),
      );
      if (!crd) return;
    }
    if (isConditionTrue(crd, 'Established')) this.served.serve(crd, false);
    else this.served.unserve(name);
  }

  /** acceptNames runs the naming controller: settles acceptedNames and NamesAccepted. */
  private acceptNames(crd: CustomResourceDefinition): CustomResourceDefinition | undefined {
    if (namesSettled(crd)) return crd;
    const others = this.otherCrds(crd);
    const decision = decideNames(crd, takenNames(crd.spec.group, others, this.served.otherDefinitions()));
    const acceptedUnchanged = deepEqual(decision.acceptedNames, crd.status?.acceptedNames ?? {});
    if (acceptedUnchanged && isEquivalent(decision.namesAccepted, findCondition(crd, 'NamesAccepted'))) return crd;
    const name = crd.metadata.name ?? '';
    const updated = updateCrd(this.ctx, name, 'status', (c) => {
      (c.status ??= {}).acceptedNames = decision.acceptedNames;
      setCondition(c, decision.namesAccepted, this.now());
      setCondition(c, decision.established, this.now());
    });
    // Names this CRD gave up or took change what its group's other CRDs may accept.
    this.requeueGroup(name, crd.spec.group);
    return updated;
  }

  private otherCrds(crd: CustomResourceDefinition): CustomResourceDefinition[] {
    return listCrds(this.ctx).crds.filter((c) => c.metadata.name !== crd.metadata.name);
  }

  /** requeueGroup re-syncs the other CRDs of a group (every CRD when the group is unknown). */
  private requeueGroup(name: string, group: string | undefined): void {
    const groupOf = group ?? name.slice(name.indexOf('.') + 1);
    for (const other of listCrds(this.ctx).crds) {
      const otherName = other.metadata.name ?? '';
      if (otherName !== name && other.spec.group === groupOf && !namesSettled(other)) this.retryLater(otherName, 0);
    }
  }

  private retryLater(name: string, delayMs = this.options.retryMs ?? 1_000): void {
    if (this.stopped || this.retries.has(name)) return;
    const timer = setTimeout(() => {
      this.retries.delete(name);
      this.sync(name);
    }, delayMs);
    timer.unref();
    this.retries.set(name, timer);
  }

  private cancelRetry(name: string): void {
    const timer = this.retries.get(name);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.retries.delete(name);
  }

  private now(): string {
    return rfc3339(this.ctx.now());
  }
}
