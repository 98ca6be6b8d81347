/**
 * PodIpAllocator hands out pod IPs from one node's /24 (10.244.<index>.2 – .254; .1 is the
 * bridge). A pod keeps its address for as long as the kubelet knows it; a pod that already
 * reports an address in the range (kubelet-sim restarted) keeps that one.
 */
const FIRST_HOST = 2;
const LAST_HOST = 254;
export class PodIpAllocator {
    prefix;
    /** pod key → host part; invariant: values are distinct. */
    byKey = new Map();
    used = new Set();
    next = FIRST_HOST;
    constructor(index) {
        this.prefix = `10.244.${index % 256}.`;
    }
    /** allocate returns the key's address, reserving `preferred` when it is free and in range.
     * Throws when every address is taken. */
    allocate(key, preferred) {
        const known = this.byKey.get(key);
        if (known !== undefined)
            return this.prefix + known;
        const wanted = this.hostPartOf(preferred);
        const host = wanted !== undefined && !this.used.has(wanted) ? wanted : this.findFree();
        this.byKey.set(key, host);
        this.used.add(host);
        return this.prefix + host;
    }
    /** release frees the key's address (no-op for unknown keys). */
    release(key) {
        const host = this.byKey.get(key);
        if (host === undefined)
            return;
        this.byKey.delete(key);
        this.used.delete(host);
    }
    get size() {
        return this.used.size;
    }
    hostPartOf(ip) {
        if (!ip?.startsWith(this.prefix))
            return undefined;
        const host = Number(ip.slice(this.prefix.length));
        return Number.isInteger(host) && host >= FIRST_HOST && host <= LAST_HOST ? host : undefined;
    }
    /** findFree scans round-robin from the last allocation, so a freed address is not reused
     * at once (as CNI IPAM plugins avoid). */
    findFree() {
        const span = LAST_HOST - FIRST_HOST + 1;
        for (let i = 0; i < span; i++) {
            const host = FIRST_HOST + ((this.next - FIRST_HOST + i) % span);
            if (this.used.has(host))
                continue;
            this.next = host + 1 > LAST_HOST ? FIRST_HOST : host + 1;
            return host;
        }
        throw new Error(`no free pod IP left in ${this.prefix}0/24`);
    }
}
//# sourceMappingURL=pod-ip-allocator.js.map