/** Services get a cluster IP from the service CIDR (10.96.0.0/12, 10.96.0.1 being the
 * `kubernetes` Service) and node ports from 30000-32767, as kube-apiserver allocates them.
 * Allocated values survive updates that omit them. */
import { invalid as invalidError } from '../../api/api-error.js';
import { asKube } from '../context.js';
const CIDR_BASE = (10 << 24) | (96 << 16); // 10.96.0.0
const CIDR_SIZE = 1 << 20; // a /12
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;
function specOf(service) {
    return (service['spec'] ?? (service['spec'] = {}));
}
function ipToString(n) {
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
function allocatedIps(ctx) {
    const used = new Set();
    for (const item of ctx.store.list({ resource: 'services' }).items) {
        for (const ip of specOf(asKube(item)).clusterIPs ?? [])
            used.add(ip);
    }
    return used;
}
function allocatedNodePorts(ctx) {
    const used = new Set();
    for (const item of ctx.store.list({ resource: 'services' }).items) {
        for (const port of specOf(asKube(item)).ports ?? [])
            if (port.nodePort)
                used.add(port.nodePort);
    }
    return used;
}
function pickFree(candidate, used, attempts) {
    for (let i = 0; i < attempts; i++) {
        const value = candidate();
        if (!used.has(value))
            return value;
    }
    return undefined;
}
function assignClusterIp(service, ctx) {
    const spec = specOf(service);
    if (spec.type === 'ExternalName')
        return;
    if (spec.clusterIP === 'None') {
        spec.clusterIPs = ['None'];
        return;
    }
    const used = allocatedIps(ctx);
    if (spec.clusterIP) {
        if (used.has(spec.clusterIP))
            throw allocationError(service, 'spec.clusterIPs', [spec.clusterIP], `failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`);
    }
    else {
        // Offsets 0 and 1 are the network address and the `kubernetes` Service.
        const ip = pickFree(() => ipToString(CIDR_BASE + 2 + Math.floor(Math.random() * (CIDR_SIZE - 3))), used, 100);
        if (!ip)
            throw allocationError(service, 'spec.clusterIPs', [], 'failed to allocate a serviceIP: range is full');
        spec.clusterIP = ip;
    }
    spec.clusterIPs = [spec.clusterIP];
}
function assignNodePorts(service, ctx) {
    const spec = specOf(service);
    if (spec.type !== 'NodePort' && spec.type !== 'LoadBalancer')
        return;
    const used = allocatedNodePorts(ctx);
    for (const port of spec.ports ?? []) {
        if (port.nodePort)
            continue;
        const nodePort = pickFree(() => NODE_PORT_MIN + Math.floor(Math.random() * (NODE_PORT_MAX - NODE_PORT_MIN + 1)), used, 200);
        if (!nodePort)
            throw allocationError(service, 'spec.ports', [], 'failed to allocate a nodePort: range is full');
        port.nodePort = nodePort;
        used.add(nodePort);
    }
}
function allocationError(service, field, value, detail) {
    return invalidError({ group: '', resource: 'services', kind: 'Service', name: service.metadata.name ?? '' }, [
        { type: 'FieldValueInvalid', field, value, detail },
    ]);
}
/** keepAllocations copies the cluster IP and node ports of `old` into an update that omits them. */
function keepAllocations(service, old) {
    const spec = specOf(service);
    const oldSpec = specOf(old);
    if (!spec.clusterIP && oldSpec.clusterIP && spec.type !== 'ExternalName') {
        spec.clusterIP = oldSpec.clusterIP;
        spec.clusterIPs = oldSpec.clusterIPs;
    }
    for (const port of spec.ports ?? []) {
        const previous = oldSpec.ports?.find((p) => p.port === port.port);
        if (!port.nodePort && previous?.nodePort)
            port.nodePort = previous.nodePort;
    }
}
export const serviceStrategy = {
    beforeCreate(service, ctx) {
        assignClusterIp(service, ctx);
        assignNodePorts(service, ctx);
    },
    beforeUpdate(service, old, ctx) {
        keepAllocations(service, old);
        assignNodePorts(service, ctx);
    },
};
//# sourceMappingURL=service-strategy.js.map