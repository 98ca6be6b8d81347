/**
 * The Secret references of a pod, as the ServiceAccount admission plugin checks them: which
 * Secrets a pod names anywhere (a mirror pod may name none), and which of them its service
 * account does not list when the account enforces mountable secrets. Messages are kube's.
 */
import type { Container } from '../../api/core/container.js';
import type { PodSpec } from '../../api/core/pod-spec.js';
import type { ServiceAccount } from '../../api/core/service-account.js';

type Json = Record<string, unknown>;

/** ENFORCE_MOUNTABLE_SECRETS: on a ServiceAccount, "true" limits its pods to the Secrets it lists. */
export const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';

/** enforcesMountableSecrets reads the annotation as Go's strconv.ParseBool does (a bad value is false). */
export function enforcesMountableSecrets(account: ServiceAccount): boolean {
  const value = account.metadata.annotations?.[ENFORCE_MOUNTABLE_SECRETS];
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

/** secretReferenceProblem is the first Secret reference `account` does not allow, in kube's
 * order (volumes, init containers, containers, image pull secrets), or undefined. */
export function secretReferenceProblem(account: ServiceAccount, spec: PodSpec): string | undefined {
  const mountable = new Set((account.secrets ?? []).map((s) => s.name));
  const notReferenced = `is not allowed because service account ${account.metadata.name} does not reference that secret`;
  for (const volume of spec.volumes ?? []) {
    const name = volume.secret?.secretName;
    if (volume.secret && !mountable.has(name ?? '')) return `volume with secret.secretName="${name ?? ''}" ${notReferenced}`;
  }
  const containers: Array<[string, Container[] | undefined]> = [
    ['init container', spec.initContainers],
    ['container', spec.containers],
  ];
  for (const [what, list] of containers) {
    for (const container of list ?? []) {
      for (const env of container.env ?? []) {
        const ref = env.valueFrom?.secretKeyRef?.name;
        if (env.valueFrom?.secretKeyRef && !mountable.has(ref ?? '')) {
          return `${what} ${container.name} with envVar ${env.name} referencing secret.secretName="${ref ?? ''}" ${notReferenced}`;
        }
      }
      for (const from of container.envFrom ?? []) {
        const ref = from.secretRef?.name;
        if (from.secretRef && !mountable.has(ref ?? ''))
          return `${what} ${container.name} with envFrom referencing secret.secretName="${ref ?? ''}" ${notReferenced}`;
      }
    }
  }
  const pullable = new Set((account.imagePullSecrets ?? []).map((s) => s.name));
  const index = (spec.imagePullSecrets ?? []).findIndex((ref) => !pullable.has(ref.name));
  if (index >= 0) {
    const name = spec.imagePullSecrets![index]!.name ?? '';
    return `imagePullSecrets[${index}].name="${name}" is not allowed because service account ${account.metadata.name} does not reference that imagePullSecret`;
  }
  return undefined;
}

/** referencesSecrets: does the pod name any Secret (kube's VisitPodSecretNames over all containers)? */
export function referencesSecrets(spec: PodSpec): boolean {
  if ((spec.imagePullSecrets ?? []).length > 0) return true;
  const containers = [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])];
  if (containers.some((c) => (c.envFrom ?? []).some((f) => f.secretRef) || (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef))) return true;
  return (spec.volumes ?? []).some((volume) => volume.secret !== undefined || volumeNamesSecret(volume as Json));
}

/** The volume sources other than `secret` that may name a Secret. */
function volumeNamesSecret(volume: Json): boolean {
  const sources = ((volume['projected'] as Json | undefined)?.['sources'] as Json[] | undefined) ?? [];
  if (sources.some((source) => source['secret'] !== undefined)) return true;
  const csi = volume['csi'] as Json | undefined;
  if (csi?.['nodePublishSecretRef']) return true;
  return ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos'].some((source) => {
    const value = volume[source] as Json | undefined;
    return value !== undefined && (value['secretRef'] !== undefined || value['secretName'] !== undefined);
  });
}
