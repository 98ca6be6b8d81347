import { defaultProbe } from './probe.js';
import { defaultVolume } from './volume.js';
/** defaultPodSpec fills Kubernetes' PodSpec defaults into `spec` in place and returns it.
 * Only unset fields are written, so applying it again changes nothing. It is safe on pod
 * templates (Deployment, ReplicaSet, Job) as well as on pods. */
export function defaultPodSpec(spec) {
    spec.restartPolicy ??= 'Always';
    spec.terminationGracePeriodSeconds ??= 30;
    spec.dnsPolicy ??= 'ClusterFirst';
    spec.securityContext ??= {};
    spec.schedulerName ||= 'default-scheduler';
    syncServiceAccountAlias(spec);
    for (const volume of spec.volumes ?? [])
        defaultVolume(volume);
    for (const container of allContainers(spec))
        defaultContainer(container, spec.hostNetwork === true);
    return spec;
}
/** allContainers lists init, app and ephemeral containers, in that order. */
export function allContainers(spec) {
    return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}
/** defaultImagePullPolicy is Always for untagged or :latest images, else IfNotPresent
 * (an image pinned by digest never changes, so it is not pulled again). */
export function defaultImagePullPolicy(image) {
    if (!image)
        return 'Always';
    if (image.includes('@'))
        return 'IfNotPresent';
    const lastSlash = image.lastIndexOf('/');
    const lastColon = image.lastIndexOf(':');
    const tag = lastColon > lastSlash ? image.slice(lastColon + 1) : '';
    return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}
function defaultContainer(container, hostNetwork) {
    container.imagePullPolicy ??= defaultImagePullPolicy(container.image);
    container.terminationMessagePath ||= '/dev/termination-log';
    container.terminationMessagePolicy ??= 'File';
    for (const port of container.ports ?? []) {
        port.protocol ??= 'TCP';
        // A host-network pod listens on the node itself, so its ports are host ports.
        if (hostNetwork && !port.hostPort)
            port.hostPort = port.containerPort;
    }
    for (const env of container.env ?? []) {
        if (env.valueFrom?.fieldRef)
            env.valueFrom.fieldRef.apiVersion ||= 'v1';
    }
    for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) {
        if (probe)
            defaultProbe(probe);
    }
}
/** serviceAccount is the deprecated spelling of serviceAccountName; Kubernetes keeps the two
 * equal on output, preferring serviceAccountName when both are given. */
function syncServiceAccountAlias(spec) {
    if (!spec.serviceAccountName && spec.serviceAccount)
        spec.serviceAccountName = spec.serviceAccount;
    if (spec.serviceAccountName)
        spec.serviceAccount = spec.serviceAccountName;
}
//# sourceMappingURL=pod-spec-defaults.js.map