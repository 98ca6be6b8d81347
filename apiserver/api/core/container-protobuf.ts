/** Protobuf tables of container.ts: Container and its parts (k8s.io/api/core/v1 generated.proto). */
import { QuantityMessage } from '../meta-protobuf.js';
import { type FieldSpec, field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { LocalObjectReferenceMessage } from './object-reference-protobuf.js';
import { LifecycleMessage, ProbeMessage } from './probe-protobuf.js';
import { K8S_CORE } from './schema-helpers.js';

export const ContainerPortMessage = message(`${K8S_CORE}.ContainerPort`, {
  1: field.string('name'),
  2: field.int32('hostPort'),
  3: field.int32('containerPort', KEEP_ZERO),
  4: field.string('protocol'),
  5: field.string('hostIP'),
});

export const ObjectFieldSelectorMessage = message(`${K8S_CORE}.ObjectFieldSelector`, {
  1: field.string('apiVersion'),
  2: field.string('fieldPath', KEEP_ZERO),
});

export const ResourceFieldSelectorMessage = message(`${K8S_CORE}.ResourceFieldSelector`, {
  1: field.string('containerName'),
  2: field.string('resource', KEEP_ZERO),
  3: field.message('divisor', QuantityMessage),
});

// The key selectors embed LocalObjectReference inline (`name` sits on the selector itself).
const keySelector = (name: string) =>
  message(`${K8S_CORE}.${name}`, {
    1: field.inline(LocalObjectReferenceMessage),
    2: field.string('key', KEEP_ZERO),
    3: field.bool('optional', KEEP_ZERO),
  });

export const ConfigMapKeySelectorMessage = keySelector('ConfigMapKeySelector');
export const SecretKeySelectorMessage = keySelector('SecretKeySelector');

export const EnvVarSourceMessage = message(`${K8S_CORE}.EnvVarSource`, {
  1: field.message('fieldRef', ObjectFieldSelectorMessage),
  2: field.message('resourceFieldRef', ResourceFieldSelectorMessage),
  3: field.message('configMapKeyRef', ConfigMapKeySelectorMessage),
  4: field.message('secretKeyRef', SecretKeySelectorMessage),
});

export const EnvVarMessage = message(`${K8S_CORE}.EnvVar`, {
  1: field.string('name', KEEP_ZERO),
  2: field.string('value'),
  3: field.message('valueFrom', EnvVarSourceMessage),
});

const envSource = (name: string) =>
  message(`${K8S_CORE}.${name}`, {
    1: field.inline(LocalObjectReferenceMessage),
    2: field.bool('optional', KEEP_ZERO),
  });

export const EnvFromSourceMessage = message(`${K8S_CORE}.EnvFromSource`, {
  1: field.string('prefix'),
  2: field.message('configMapRef', envSource('ConfigMapEnvSource')),
  3: field.message('secretRef', envSource('SecretEnvSource')),
});

export const ResourceClaimMessage = message(`${K8S_CORE}.ResourceClaim`, {
  1: field.string('name', KEEP_ZERO),
  2: field.string('request'),
});

export const ResourceRequirementsMessage = message(`${K8S_CORE}.ResourceRequirements`, {
  1: field.map('limits', QuantityMessage),
  2: field.map('requests', QuantityMessage),
  3: field.repeated('claims', ResourceClaimMessage),
});

export const VolumeMountMessage = message(`${K8S_CORE}.VolumeMount`, {
  1: field.string('name', KEEP_ZERO),
  2: field.bool('readOnly'),
  3: field.string('mountPath', KEEP_ZERO),
  4: field.string('subPath'),
  5: field.string('mountPropagation', KEEP_ZERO),
  6: field.string('subPathExpr'),
  7: field.string('recursiveReadOnly', KEEP_ZERO),
});

export const VolumeDeviceMessage = message(`${K8S_CORE}.VolumeDevice`, {
  1: field.string('name', KEEP_ZERO),
  2: field.string('devicePath', KEEP_ZERO),
});

export const CapabilitiesMessage = message(`${K8S_CORE}.Capabilities`, {
  1: field.repeated('add', 'string'),
  2: field.repeated('drop', 'string'),
});

export const SELinuxOptionsMessage = message(`${K8S_CORE}.SELinuxOptions`, {
  1: field.string('user'),
  2: field.string('role'),
  3: field.string('type'),
  4: field.string('level'),
});

export const WindowsSecurityContextOptionsMessage = message(`${K8S_CORE}.WindowsSecurityContextOptions`, {
  1: field.string('gmsaCredentialSpecName', KEEP_ZERO),
  2: field.string('gmsaCredentialSpec', KEEP_ZERO),
  3: field.string('runAsUserName', KEEP_ZERO),
  4: field.bool('hostProcess', KEEP_ZERO),
});

// SeccompProfile and AppArmorProfile: `type` has no omitempty, `localhostProfile` is a pointer.
const profile = (name: string) => message(`${K8S_CORE}.${name}`, { 1: field.string('type', KEEP_ZERO), 2: field.string('localhostProfile', KEEP_ZERO) });

export const SeccompProfileMessage = profile('SeccompProfile');
export const AppArmorProfileMessage = profile('AppArmorProfile');

export const SecurityContextMessage = message(`${K8S_CORE}.SecurityContext`, {
  1: field.message('capabilities', CapabilitiesMessage),
  2: field.bool('privileged', KEEP_ZERO),
  3: field.message('seLinuxOptions', SELinuxOptionsMessage),
  4: field.int64('runAsUser', KEEP_ZERO),
  5: field.bool('runAsNonRoot', KEEP_ZERO),
  6: field.bool('readOnlyRootFilesystem', KEEP_ZERO),
  7: field.bool('allowPrivilegeEscalation', KEEP_ZERO),
  8: field.int64('runAsGroup', KEEP_ZERO),
  9: field.string('procMount', KEEP_ZERO),
  10: field.message('windowsOptions', WindowsSecurityContextOptionsMessage),
  11: field.message('seccompProfile', SeccompProfileMessage),
  12: field.message('appArmorProfile', AppArmorProfileMessage),
});

/** containerFields are Container's fields, shared with EphemeralContainerCommon. */
const containerFields: Record<number, FieldSpec> = {
  1: field.string('name', KEEP_ZERO),
  2: field.string('image'),
  3: field.repeated('command', 'string'),
  4: field.repeated('args', 'string'),
  5: field.string('workingDir'),
  6: field.repeated('ports', ContainerPortMessage),
  7: field.repeated('env', EnvVarMessage),
  8: field.message('resources', ResourceRequirementsMessage),
  9: field.repeated('volumeMounts', VolumeMountMessage),
  10: field.message('livenessProbe', ProbeMessage),
  11: field.message('readinessProbe', ProbeMessage),
  12: field.message('lifecycle', LifecycleMessage),
  13: field.string('terminationMessagePath'),
  14: field.string('imagePullPolicy'),
  15: field.message('securityContext', SecurityContextMessage),
  16: field.bool('stdin'),
  17: field.bool('stdinOnce'),
  18: field.bool('tty'),
  19: field.repeated('envFrom', EnvFromSourceMessage),
  20: field.string('terminationMessagePolicy'),
  21: field.repeated('volumeDevices', VolumeDeviceMessage),
  22: field.message('startupProbe', ProbeMessage),
  24: field.string('restartPolicy', KEEP_ZERO),
};

export const ContainerMessage = message(`${K8S_CORE}.Container`, containerFields);

/** EphemeralContainerMessage embeds EphemeralContainerCommon (Container's fields) inline. */
export const EphemeralContainerMessage = message(`${K8S_CORE}.EphemeralContainer`, {
  1: field.inline(message(`${K8S_CORE}.EphemeralContainerCommon`, containerFields)),
  2: field.string('targetContainerName'),
});
