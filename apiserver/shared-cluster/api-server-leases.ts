/**
 * Each API server of a shared store keeps a Lease in kube-system, as kube-apiserver keeps its
 * identity lease: named apiserver-<hash>, labelled apiserver.kubernetes.io/identity=kube-apiserver
 * and kubernetes.io/hostname, its address in the kubernetes.io/peer-advertise-address
 * annotation, renewed every 10 s of cluster time. Its duration is 15 s, the TTL of
 * kube-apiserver's lease endpoint reconciler (kube's identity lease lasts an hour; here the
 * one Lease serves both purposes), so a server that stops renewing drops out of the
 * `kubernetes` endpoints once its Lease lapsed (liveAddresses says by which clock). The live set
 * is re-read whenever an API server's Lease changes.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { StoreWatch } from '../../store/index.js';
import type { Clock, TimerHandle } from '../api/machinery/clock-types.js';
import { rfc3339Micro } from '../api/machinery/time.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { ApiAddress, ApiServerDirectory } from '../controlplane/index.js';
import type { KindRef, ObjectWriter } from '../controlplane/writes.js';

export const LEASE: KindRef = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
export const LEASE_NAMESPACE = 'kube-system';
export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
export const IDENTITY_VALUE = 'kube-apiserver';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const PEER_ADDRESS_ANNOTATION = 'kubernetes.io/peer-advertise-address';
/** kube-apiserver's DefaultEndpointReconcilerTTL. */
export const API_SERVER_LEASE_DURATION_SECONDS = 15;
/** kube-apiserver's IdentityLeaseRenewIntervalPeriod (and DefaultEndpointReconcilerInterval). */
export const API_SERVER_LEASE_RENEW_MS = 10_000;

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  renewTime?: string;
}

export interface ApiServerLeasesOptions {
  writer: ObjectWriter;
  address: ApiAddress;
  /** The cluster clock: renewals and expiry follow it. */
  clock: Clock;
  /** A uuid for the holder identity. */
  uuid: () => string;
  /** Where renewal failures go. */
  logger?: { error(details: object, message: string): void };
}

/** apiServerLeaseName is kube-apiserver's identity lease name: apiserver- and the lower-case
 * base32 of the first 16 bytes of a SHA-256, here of host name and address (several servers
 * may share a machine). */
export function apiServerLeaseName(host: string, address: ApiAddress): string {
  const digest = createHash('sha256').update(`${host}/${address.ip}:${address.port}`).digest().subarray(0, 16);
  return `apiserver-${base32(digest)}`;
}

/** ApiServerLeases keeps this server's Lease and knows the live servers (see the file comment). */
export class ApiServerLeases implements ApiServerDirectory {
  readonly name: string;
  private readonly holder: string;
  private readonly host = hostname();
  private readonly listeners = new Set<() => void>();
  private liveSet: ApiAddress[] = [];
  private renewal: TimerHandle | undefined;
  private watch: StoreWatch | undefined;
  private stopped = false;

  constructor(private readonly options: ApiServerLeasesOptions) {
    this.name = apiServerLeaseName(this.host, options.address);
    this.holder = `${this.name}_${options.uuid()}`;
  }

  /** start writes the Lease, reads the live set and follows both. */
  start(): void {
    this.renew();
    this.follow();
  }

  /** follow reads the live set and re-reads it at every change of an API server's Lease. */
  private follow(): void {
    const store = this.options.writer.ctx.store;
    const watch = store.watch({ resource: this.leaseResource(), namespace: LEASE_NAMESPACE, afterRevision: store.currentRevision });
    this.watch = watch;
    this.refresh();
    void (async () => {
      for await (const message of watch) if (message.type !== 'BOOKMARK' && message.ref.name.startsWith('apiserver-')) this.refresh();
      // Cut off as too slow: read everything again and follow anew.
      if (!this.stopped && watch.endReason === 'too-slow') this.follow();
    })();
  }

  stop(): void {
    this.stopped = true;
    this.renewal?.cancel();
    this.watch?.close();
  }

  live(): ApiAddress[] {
    return this.liveSet.map((address) => ({ ...address }));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** renew writes the Lease now and schedules the next renewal. */
  private renew(): void {
    if (this.stopped) return;
    try {
      this.write();
    } catch (err) {
      this.options.logger?.error({ err }, 'renewing the API server lease failed; retrying at the next renewal');
    }
    this.renewal = this.options.clock.setTimeout(() => this.renew(), API_SERVER_LEASE_RENEW_MS);
  }

  private write(): void {
    const { writer, address, clock } = this.options;
    const spec: LeaseSpec = { holderIdentity: this.holder, leaseDurationSeconds: API_SERVER_LEASE_DURATION_SECONDS, renewTime: rfc3339Micro(clock.now()) };
    const labels = { [IDENTITY_LABEL]: IDENTITY_VALUE, [HOSTNAME_LABEL]: this.host };
    const annotations = { [PEER_ADDRESS_ANNOTATION]: formatAddress(address) };
    if (!writer.read(LEASE, LEASE_NAMESPACE, this.name)) {
      writer.create(LEASE, LEASE_NAMESPACE, { metadata: { name: this.name, labels, annotations }, spec });
      return;
    }
    writer.update(LEASE, LEASE_NAMESPACE, this.name, 'main', (lease) => {
      lease.metadata.labels = { ...lease.metadata.labels, ...labels };
      lease.metadata.annotations = { ...lease.metadata.annotations, ...annotations };
      lease['spec'] = { ...(lease['spec'] as LeaseSpec), ...spec };
    });
  }

  /** refresh recomputes the live set and tells the listeners if it changed. */
  private refresh(): void {
    if (this.stopped) return;
    const leases = this.options.writer.ctx.store.list({ resource: this.leaseResource(), namespace: LEASE_NAMESPACE }).items as KubeObject[];
    const live = liveAddresses(leases);
    if (sameAddresses(live, this.liveSet)) return;
    this.liveSet = live;
    for (const listener of [...this.listeners]) listener();
  }

  private leaseResource(): string {
    return this.options.writer.ctx.registry.findByKind(LEASE.apiVersion, LEASE.kind)!.storage.resource;
  }
}

/**
 * liveAddresses lists the servers whose Lease has not lapsed by the time of the freshest renewal
 * among them. Judged by the store's content alone, not by each server's clock, every server
 * reaches the same answer from the same Leases: two servers whose clocks stand apart for a
 * moment (one still following the other's jump) never fight over the endpoints. A server that
 * stopped renewing drops out at the first renewal of another after its Lease lapsed.
 */
export function liveAddresses(leases: readonly KubeObject[]): ApiAddress[] {
  const servers = leases.flatMap((lease) => {
    const address = identityAddress(lease);
    const expiresMs = expiryOf(lease);
    return address && expiresMs !== undefined ? [{ address, renewMs: renewTimeOf(lease)!, expiresMs }] : [];
  });
  const freshestMs = Math.max(...servers.map((server) => server.renewMs));
  const live = servers.filter((server) => server.expiresMs > freshestMs).map((server) => server.address);
  return live.sort((a, b) => a.port - b.port || (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
}

/** identityAddress is the address an API server's identity Lease advertises, if it is one. */
function identityAddress(lease: KubeObject): ApiAddress | undefined {
  if (lease.metadata.labels?.[IDENTITY_LABEL] !== IDENTITY_VALUE) return undefined;
  const text = lease.metadata.annotations?.[PEER_ADDRESS_ANNOTATION];
  const match = text?.match(/^\[?([^\]]+?)\]?:(\d+)$/);
  return match ? { ip: match[1]!, port: Number(match[2]) } : undefined;
}

function renewTimeOf(lease: KubeObject): number | undefined {
  const renewTime = ((lease['spec'] ?? {}) as LeaseSpec).renewTime;
  const ms = renewTime ? Date.parse(renewTime) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/** expiryOf is when a Lease lapses: its renewTime plus its duration (cluster time). */
function expiryOf(lease: KubeObject): number | undefined {
  const renewMs = renewTimeOf(lease);
  const duration = ((lease['spec'] ?? {}) as LeaseSpec).leaseDurationSeconds;
  return renewMs === undefined || duration === undefined ? undefined : renewMs + duration * 1000;
}

/** formatAddress writes ip:port ([ip]:port for IPv6), as kube-apiserver's peer address. */
export function formatAddress({ ip, port }: ApiAddress): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

function sameAddresses(a: ApiAddress[], b: ApiAddress[]): boolean {
  return a.length === b.length && a.every((address, i) => address.ip === b[i]!.ip && address.port === b[i]!.port);
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** base32 is RFC 4648 base32 in lower case, without padding. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}
