/**
 * The restricted-only Pod Security Standards checks of kube 1.33 (pod-security-admission's
 * policy/check_*.go). Three of them tighten a baseline check and replace it while they apply
 * (`overrides`): unrestricted capabilities, restricted volume types and seccompProfile.
 * From v1.25 on, a pod with spec.os.name=windows is exempt from the Linux-only ones.
 */
import { badProfileTypes, CAPABILITIES_BASELINE_ID, HOST_PATH_VOLUMES_ID, SECCOMP_BASELINE_ID } from './pod-security-baseline.js';
import { type Check, type CheckPod, containersNoun, isWindows, joinQuote, pluralize, settersOf, sortedSet } from './pod-security-check-kit.js';

/** exceptWindows: the v1.25 version of a check, which lets Windows pods through. */
const exceptWindows =
  (check: CheckPod): CheckPod =>
  (pod) =>
    isWindows(pod.spec) ? undefined : check(pod);

const allowPrivilegeEscalation: CheckPod = ({ allContainers }) => {
  const names = allContainers.filter((c) => c.securityContext?.allowPrivilegeEscalation !== false).map((c) => c.name);
  if (names.length === 0) return undefined;
  return { reason: 'allowPrivilegeEscalation != false', detail: `${containersNoun(names)} must set securityContext.allowPrivilegeEscalation=false` };
};

const capabilitiesRestricted: CheckPod = ({ allContainers }) => {
  const notDroppingAll: string[] = [];
  const adding: string[] = [];
  const added: string[] = [];
  for (const c of allContainers) {
    const capabilities = c.securityContext?.capabilities;
    if (!(capabilities?.drop ?? []).includes('ALL')) notDroppingAll.push(c.name);
    const forbidden = (capabilities?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (forbidden.length === 0) continue;
    adding.push(c.name);
    added.push(...forbidden);
  }
  const details: string[] = [];
  if (notDroppingAll.length > 0) details.push(`${containersNoun(notDroppingAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length > 0) details.push(`${containersNoun(adding)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`);
  return details.length > 0 ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

/** The inline volume sources restricted allows. */
const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];

/** The sources kube names in its refusal, in the order it looks for them. */
const NAMED_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const restrictedVolumes: CheckPod = ({ spec }) => {
  const volumes: string[] = [];
  const types: string[] = [];
  for (const volume of spec.volumes ?? []) {
    if (ALLOWED_VOLUME_SOURCES.some((source) => volume[source] != null)) continue;
    volumes.push(volume.name);
    types.push(NAMED_VOLUME_SOURCES.find((source) => volume[source] != null) ?? 'unknown');
  }
  if (volumes.length === 0) return undefined;
  const distinct = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', volumes.length)} ${joinQuote(volumes)} ${pluralize('uses', 'use', volumes.length)} ${pluralize('restricted volume type', 'restricted volume types', distinct.length)} ${joinQuote(distinct)}`,
  };
};

const runAsNonRoot: CheckPod = ({ spec, allContainers }) => {
  const podValue = spec.securityContext?.runAsNonRoot;
  const explicitlyFalse: string[] = [];
  const unset: string[] = [];
  for (const c of allContainers) {
    const value = c.securityContext?.runAsNonRoot;
    if (value === false) explicitlyFalse.push(c.name);
    // A container that says nothing is covered only by the pod's runAsNonRoot=true.
    else if (value == null && podValue !== true) unset.push(c.name);
  }
  const setters = settersOf(podValue === false, explicitlyFalse);
  if (setters.length > 0) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (unset.length > 0) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersNoun(unset)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: CheckPod = ({ spec, allContainers }) => {
  const setters = settersOf(
    spec.securityContext?.runAsUser === 0,
    allContainers.filter((c) => c.securityContext?.runAsUser === 0).map((c) => c.name),
  );
  return setters.length > 0 ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
};

const seccompProfileRestricted: CheckPod = ({ spec, allContainers }) => {
  const { setters, values } = badProfileTypes(spec, allContainers, (context) => context?.seccompProfile);
  if (setters.length > 0)
    return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}` };
  // A valid pod-level profile covers the containers that set none.
  if (spec.securityContext?.seccompProfile != null) return undefined;
  const unset = allContainers.filter((c) => c.securityContext?.seccompProfile == null).map((c) => c.name);
  if (unset.length === 0) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `pod or ${containersNoun(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  };
};

export const RESTRICTED_CHECKS: readonly Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    versions: [
      { since: 8, check: allowPrivilegeEscalation },
      { since: 25, check: exceptWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [
      { since: 22, check: capabilitiesRestricted, overrides: [CAPABILITIES_BASELINE_ID] },
      { since: 25, check: exceptWindows(capabilitiesRestricted), overrides: [CAPABILITIES_BASELINE_ID] },
    ],
  },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ since: 0, check: restrictedVolumes, overrides: [HOST_PATH_VOLUMES_ID] }] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ since: 0, check: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ since: 23, check: runAsUser }] },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [
      { since: 19, check: seccompProfileRestricted, overrides: [SECCOMP_BASELINE_ID] },
      { since: 25, check: exceptWindows(seccompProfileRestricted), overrides: [SECCOMP_BASELINE_ID] },
    ],
  },
];
