/**
 * The API server's own control loops (kube-apiserver runs these in process, not in
 * kube-controller-manager, because only the server knows its address and service range):
 * the `kubernetes` Service with its Endpoints and EndpointSlice, the ServiceCIDRs, and the
 * IPAddress of every Service cluster IP. They follow the store's watch, reconcile what each
 * change touches, and re-sync everything at start (a reopened data dir, another port) and
 * after an error or a watch cut off as too slow.
 */
import type { ObjectRef, StoredObject, StoreEventType, StoreWatch } from '../../store/index.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { RegistryContext } from '../registry/context.js';
import { clusterIpsOf, IP_ADDRESS, reconcileIp, resyncIpAddresses, serviceKeyOf } from './ip-addresses.js';
import {
  type ApiAddress,
  ENDPOINT_SLICE,
  ENDPOINTS,
  KUBERNETES_NAME,
  KUBERNETES_NAMESPACE,
  reconcileKubernetesService,
  SERVICE,
} from './kubernetes-service.js';
import { DEFAULT_SERVICE_CIDR_NAME, reconcileServiceCidr, reconcileTerminatingServiceCidrs, SERVICE_CIDR } from './service-cidrs.js';
import { type KindRef, ObjectWriter } from './writes.js';

export { type ApiAddress, apiAddressOf } from './kubernetes-service.js';

/** Where the loops report problems (fastify's logger fits). */
export interface ControlPlaneLogger {
  error(details: object, message: string): void;
}

export interface ControlPlaneOptions {
  ctx: RegistryContext;
  address: ApiAddress;
  logger?: ControlPlaneLogger;
  /** Delay before a full re-sync after an error (default 1 s). */
  retryMs?: number;
  /** Among several API servers: the live ones (from their Leases), which the `kubernetes`
   * endpoints list instead of `address` alone. */
  apiServers?: ApiServerDirectory;
}

/** ApiServerDirectory knows the live API servers of the cluster and says when they change. */
export interface ApiServerDirectory {
  live(): ApiAddress[];
  onChange(listener: () => void): () => void;
}

export interface ControlPlaneLoops {
  /** Stops watching and cancels a pending re-sync. Idempotent. */
  stop(): void;
}

/** A change the loops react to: the key, the object after it and before it. */
interface Change {
  type: StoreEventType;
  ref: ObjectRef;
  object: StoredObject;
  prevObject?: StoredObject;
}

/** startControlPlaneLoops re-syncs everything (synchronously) and keeps following changes. */
export function startControlPlaneLoops(options: ControlPlaneOptions): ControlPlaneLoops {
  const loops = new Loops(options);
  loops.start();
  return { stop: () => loops.stop() };
}

class Loops {
  private readonly writer: ObjectWriter;
  private readonly watches: StoreWatch[] = [];
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  private unsubscribe: () => void = () => undefined;

  /** What each watched kind's changes reconcile. */
  private readonly handlers: Array<{ kind: KindRef; namespace?: string; handle: (change: Change) => void }> = [
    { kind: SERVICE, handle: (change) => this.serviceChanged(change) },
    { kind: ENDPOINTS, namespace: KUBERNETES_NAMESPACE, handle: (change) => this.endpointsChanged(change) },
    { kind: ENDPOINT_SLICE, namespace: KUBERNETES_NAMESPACE, handle: (change) => this.endpointsChanged(change) },
    { kind: IP_ADDRESS, handle: (change) => this.ipAddressChanged(change) },
    {
      kind: SERVICE_CIDR,
      handle: (change) => {
        reconcileServiceCidr(this.writer, change.ref.name);
        // A range that came or went changes which IPAddresses hold up a ServiceCIDR being deleted.
        reconcileTerminatingServiceCidrs(this.writer);
      },
    },
  ];

  constructor(private readonly options: ControlPlaneOptions) {
    this.writer = new ObjectWriter({ ...options.ctx, actor: { user: 'system:apiserver', fieldManager: 'kube-apiserver' } });
  }

  start(): void {
    const revision = this.options.ctx.store.currentRevision;
    this.guarded(() => this.resync());
    for (const handler of this.handlers) this.follow(handler, revision);
    this.unsubscribe = this.options.apiServers?.onChange(() => this.guarded(() => this.reconcileKubernetes())) ?? this.unsubscribe;
  }

  private reconcileKubernetes(): void {
    reconcileKubernetesService(this.writer, this.options.address, this.options.apiServers?.live());
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const watch of this.watches.splice(0)) watch.close();
    clearTimeout(this.retry);
  }

  private resync(): void {
    this.reconcileKubernetes();
    reconcileServiceCidr(this.writer, DEFAULT_SERVICE_CIDR_NAME);
    for (const serviceCidr of this.writer.list(SERVICE_CIDR).items) reconcileServiceCidr(this.writer, serviceCidr.metadata.name ?? '');
    resyncIpAddresses(this.writer);
  }

  private follow(handler: Loops['handlers'][number], revision: number): void {
    const resource = this.options.ctx.registry.findByKind(handler.kind.apiVersion, handler.kind.kind)?.storage.resource;
    if (!resource) return;
    const watch = this.options.ctx.store.watch({ resource, namespace: handler.namespace, afterRevision: revision });
    this.watches.push(watch);
    void (async () => {
      for await (const message of watch) {
        if (message.type !== 'BOOKMARK') this.guarded(() => handler.handle(message));
      }
      // Cut off as too slow: events were lost, so look at everything again and follow anew.
      if (!this.stopped && watch.endReason === 'too-slow') {
        const next = this.options.ctx.store.currentRevision;
        this.guarded(() => this.resync());
        this.follow(handler, next);
      }
    })();
  }

  private serviceChanged({ ref, object, prevObject }: Change): void {
    if (ref.namespace === KUBERNETES_NAMESPACE && ref.name === KUBERNETES_NAME) this.reconcileKubernetes();
    const ips = new Set([...clusterIpsOf(object as KubeObject), ...clusterIpsOf(prevObject as KubeObject | undefined)]);
    for (const ip of ips) reconcileIp(this.writer, ip, [{ namespace: ref.namespace, name: ref.name }]);
  }

  private endpointsChanged({ ref }: Change): void {
    if (ref.name === KUBERNETES_NAME) this.reconcileKubernetes();
  }

  private ipAddressChanged({ type, ref, object, prevObject }: Change): void {
    const keys = [serviceKeyOf(object as KubeObject), serviceKeyOf(prevObject as KubeObject | undefined)].filter((key) => key !== undefined);
    reconcileIp(this.writer, ref.name, keys);
    // An IPAddress that went may have been the last to hold a ServiceCIDR being deleted.
    if (type === 'DELETED') reconcileTerminatingServiceCidrs(this.writer);
  }

  /** guarded runs one reconcile; a failure is logged and answered by a full re-sync later. */
  private guarded(reconcile: () => void): void {
    if (this.stopped) return;
    try {
      reconcile();
    } catch (err) {
      this.options.logger?.error({ err }, 'control plane loop failed; re-syncing shortly');
      this.resyncLater();
    }
  }

  private resyncLater(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.guarded(() => this.resync());
    }, this.options.retryMs ?? 1_000);
    this.retry.unref();
  }
}
