/**
 * PodIpAllocator hands out pod IPs from one node's /24 (pod-cidr.ts; .2 – .254, .1 being the
 * bridge). A pod keeps its address for as long as the kubelet knows it; a pod that already
 * reports an address in the range (kubelet-sim restarted) keeps that one.
 */
import { podNetworkPrefix } from './pod-cidr.js';

const FIRST_HOST = 2;
const LAST_HOST = 254;

export class PodIpAllocator {
  private readonly prefix: string;
  /** pod key → host part; invariant: values are distinct. */
  private readonly byKey = new Map<string, number>();
  private readonly used = new Set<number>();
  private next = FIRST_HOST;

  constructor(index: number) {
    this.prefix = podNetworkPrefix(index);
  }

  /** allocate returns the key's address, reserving `preferred` when it is free and in range.
   * Throws when every address is taken. */
  allocate(key: string, preferred?: string): string {
    const known = this.byKey.get(key);
    if (known !== undefined) return this.prefix + known;
    const wanted = this.hostPartOf(preferred);
    const host = wanted !== undefined && !this.used.has(wanted) ? wanted : this.findFree();
    this.byKey.set(key, host);
    this.used.add(host);
    return this.prefix + host;
  }

  /** release frees the key's address (no-op for unknown keys). */
  release(key: string): void {
    const host = this.byKey.get(key);
    if (host === undefined) return;
    this.byKey.delete(key);
    this.used.delete(host);
  }

  get size(): number {
    return this.used.size;
  }

  private hostPartOf(ip: string | undefined): number | undefined {
    if (!ip?.startsWith(this.prefix)) return undefined;
    const host = Number(ip.slice(this.prefix.length));
    return Number.isInteger(host) && host >= FIRST_HOST && host <= LAST_HOST ? host : undefined;
  }

  /** findFree scans round-robin from the last allocation, so a freed address is not reused
   * at once (as CNI IPAM plugins avoid). */
  private findFree(): number {
    const span = LAST_HOST - FIRST_HOST + 1;
    for (let i = 0; i < span; i++) {
      const host = FIRST_HOST + ((this.next - FIRST_HOST + i) % span);
      if (this.used.has(host)) continue;
      this.next = host + 1 > LAST_HOST ? FIRST_HOST : host + 1;
      return host;
    }
    throw new Error(`no free pod IP left in ${this.prefix}0/24`);
  }
}
