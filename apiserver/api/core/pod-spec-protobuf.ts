/** Protobuf tables of pod-spec.ts: PodSpec and PodTemplateSpec (k8s.io/api/core/v1
 * generated.proto). */
import { ObjectMetaMessage, QuantityMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { AffinityMessage, TolerationMessage, TopologySpreadConstraintMessage } from './affinity-protobuf.js';
import {
  AppArmorProfileMessage,
  ContainerMessage,
  EphemeralContainerMessage,
  ResourceRequirementsMessage,
  SELinuxOptionsMessage,
  SeccompProfileMessage,
  WindowsSecurityContextOptionsMessage,
} from './container-protobuf.js';
import { LocalObjectReferenceMessage } from './object-reference-protobuf.js';
import { K8S_CORE } from './schema-helpers.js';
import { VolumeMessage } from './volume-protobuf.js';

const nameValue = (name: string) => message(`${K8S_CORE}.${name}`, { 1: field.string('name', KEEP_ZERO), 2: field.string('value', KEEP_ZERO) });

export const PodSecurityContextMessage = message(`${K8S_CORE}.PodSecurityContext`, {
  1: field.message('seLinuxOptions', SELinuxOptionsMessage),
  2: field.int64('runAsUser', KEEP_ZERO),
  3: field.bool('runAsNonRoot', KEEP_ZERO),
  4: field.repeated('supplementalGroups', 'int64'),
  5: field.int64('fsGroup', KEEP_ZERO),
  6: field.int64('runAsGroup', KEEP_ZERO),
  7: field.repeated('sysctls', nameValue('Sysctl')),
  8: field.message('windowsOptions', WindowsSecurityContextOptionsMessage),
  9: field.string('fsGroupChangePolicy', KEEP_ZERO),
  10: field.message('seccompProfile', SeccompProfileMessage),
  11: field.message('appArmorProfile', AppArmorProfileMessage),
  12: field.string('supplementalGroupsPolicy', KEEP_ZERO),
  13: field.string('seLinuxChangePolicy', KEEP_ZERO),
});

export const PodDNSConfigMessage = message(`${K8S_CORE}.PodDNSConfig`, {
  1: field.repeated('nameservers', 'string'),
  2: field.repeated('searches', 'string'),
  3: field.repeated('options', message(`${K8S_CORE}.PodDNSConfigOption`, { 1: field.string('name'), 2: field.string('value', KEEP_ZERO) })),
});

export const HostAliasMessage = message(`${K8S_CORE}.HostAlias`, {
  1: field.string('ip', KEEP_ZERO),
  2: field.repeated('hostnames', 'string'),
});

export const PodResourceClaimMessage = message(`${K8S_CORE}.PodResourceClaim`, {
  1: field.string('name', KEEP_ZERO),
  3: field.string('resourceClaimName', KEEP_ZERO),
  4: field.string('resourceClaimTemplateName', KEEP_ZERO),
});

const oneString = (name: string, json: string) => message(`${K8S_CORE}.${name}`, { 1: field.string(json, KEEP_ZERO) });

export const PodSpecMessage = message(`${K8S_CORE}.PodSpec`, {
  1: field.repeated('volumes', VolumeMessage),
  2: field.repeated('containers', ContainerMessage),
  3: field.string('restartPolicy'),
  4: field.int64('terminationGracePeriodSeconds', KEEP_ZERO),
  5: field.int64('activeDeadlineSeconds', KEEP_ZERO),
  6: field.string('dnsPolicy'),
  7: field.map('nodeSelector'),
  8: field.string('serviceAccountName'),
  9: field.string('serviceAccount'),
  10: field.string('nodeName'),
  11: field.bool('hostNetwork'),
  12: field.bool('hostPID'),
  13: field.bool('hostIPC'),
  14: field.message('securityContext', PodSecurityContextMessage),
  15: field.repeated('imagePullSecrets', LocalObjectReferenceMessage),
  16: field.string('hostname'),
  17: field.string('subdomain'),
  18: field.message('affinity', AffinityMessage),
  19: field.string('schedulerName'),
  20: field.repeated('initContainers', ContainerMessage),
  21: field.bool('automountServiceAccountToken', KEEP_ZERO),
  22: field.repeated('tolerations', TolerationMessage),
  23: field.repeated('hostAliases', HostAliasMessage),
  24: field.string('priorityClassName'),
  25: field.int32('priority', KEEP_ZERO),
  26: field.message('dnsConfig', PodDNSConfigMessage),
  27: field.bool('shareProcessNamespace', KEEP_ZERO),
  28: field.repeated('readinessGates', oneString('PodReadinessGate', 'conditionType')),
  29: field.string('runtimeClassName', KEEP_ZERO),
  30: field.bool('enableServiceLinks', KEEP_ZERO),
  31: field.string('preemptionPolicy', KEEP_ZERO),
  32: field.map('overhead', QuantityMessage),
  33: field.repeated('topologySpreadConstraints', TopologySpreadConstraintMessage),
  34: field.repeated('ephemeralContainers', EphemeralContainerMessage),
  35: field.bool('setHostnameAsFQDN', KEEP_ZERO),
  36: field.message('os', oneString('PodOS', 'name')),
  37: field.bool('hostUsers', KEEP_ZERO),
  38: field.repeated('schedulingGates', oneString('PodSchedulingGate', 'name')),
  39: field.repeated('resourceClaims', PodResourceClaimMessage),
  40: field.message('resources', ResourceRequirementsMessage),
});

export const PodTemplateSpecMessage = message(`${K8S_CORE}.PodTemplateSpec`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', PodSpecMessage),
});
