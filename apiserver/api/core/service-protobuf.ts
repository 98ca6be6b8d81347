/** Protobuf tables of service.ts (k8s.io/api/core/v1 generated.proto). */
import { ConditionMessage, IntOrStringMessage, ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { K8S_CORE } from './schema-helpers.js';

export const ServicePortMessage = message(`${K8S_CORE}.ServicePort`, {
  1: field.string('name'),
  2: field.string('protocol'),
  3: field.int32('port', KEEP_ZERO),
  4: field.message('targetPort', IntOrStringMessage),
  5: field.int32('nodePort'),
  6: field.string('appProtocol', KEEP_ZERO),
});

export const SessionAffinityConfigMessage = message(`${K8S_CORE}.SessionAffinityConfig`, {
  1: field.message('clientIP', message(`${K8S_CORE}.ClientIPConfig`, { 1: field.int32('timeoutSeconds', KEEP_ZERO) })),
});

export const ServiceSpecMessage = message(`${K8S_CORE}.ServiceSpec`, {
  1: field.repeated('ports', ServicePortMessage),
  2: field.map('selector'),
  3: field.string('clusterIP'),
  4: field.string('type'),
  5: field.repeated('externalIPs', 'string'),
  7: field.string('sessionAffinity'),
  8: field.string('loadBalancerIP'),
  9: field.repeated('loadBalancerSourceRanges', 'string'),
  10: field.string('externalName'),
  11: field.string('externalTrafficPolicy'),
  12: field.int32('healthCheckNodePort'),
  13: field.bool('publishNotReadyAddresses'),
  14: field.message('sessionAffinityConfig', SessionAffinityConfigMessage),
  17: field.string('ipFamilyPolicy', KEEP_ZERO),
  18: field.repeated('clusterIPs', 'string'),
  19: field.repeated('ipFamilies', 'string'),
  20: field.bool('allocateLoadBalancerNodePorts', KEEP_ZERO),
  21: field.string('loadBalancerClass', KEEP_ZERO),
  22: field.string('internalTrafficPolicy', KEEP_ZERO),
  23: field.string('trafficDistribution', KEEP_ZERO),
});

export const PortStatusMessage = message(`${K8S_CORE}.PortStatus`, {
  1: field.int32('port', KEEP_ZERO),
  2: field.string('protocol', KEEP_ZERO),
  3: field.string('error', KEEP_ZERO),
});

export const LoadBalancerIngressMessage = message(`${K8S_CORE}.LoadBalancerIngress`, {
  1: field.string('ip'),
  2: field.string('hostname'),
  3: field.string('ipMode', KEEP_ZERO),
  4: field.repeated('ports', PortStatusMessage),
});

export const ServiceStatusMessage = message(`${K8S_CORE}.ServiceStatus`, {
  1: field.message('loadBalancer', message(`${K8S_CORE}.LoadBalancerStatus`, { 1: field.repeated('ingress', LoadBalancerIngressMessage) })),
  2: field.repeated('conditions', ConditionMessage),
});

export const ServiceMessage = message(`${K8S_CORE}.Service`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', ServiceSpecMessage),
  3: field.message('status', ServiceStatusMessage),
});
