/** Protobuf tables of probe.ts, plus the lifecycle hooks that share its handler actions
 * (k8s.io/api/core/v1 generated.proto). */
import { IntOrStringMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { K8S_CORE } from './schema-helpers.js';

export const ExecActionMessage = message(`${K8S_CORE}.ExecAction`, {
  1: field.repeated('command', 'string'),
});

export const HTTPHeaderMessage = message(`${K8S_CORE}.HTTPHeader`, {
  1: field.string('name', KEEP_ZERO),
  2: field.string('value', KEEP_ZERO),
});

export const HTTPGetActionMessage = message(`${K8S_CORE}.HTTPGetAction`, {
  1: field.string('path'),
  2: field.message('port', IntOrStringMessage),
  3: field.string('host'),
  4: field.string('scheme'),
  5: field.repeated('httpHeaders', HTTPHeaderMessage),
});

export const TCPSocketActionMessage = message(`${K8S_CORE}.TCPSocketAction`, {
  1: field.message('port', IntOrStringMessage),
  2: field.string('host'),
});

export const GRPCActionMessage = message(`${K8S_CORE}.GRPCAction`, {
  1: field.int32('port', KEEP_ZERO),
  2: field.string('service', KEEP_ZERO),
});

/** ProbeHandlerMessage is embedded inline in Probe (`exec`, `httpGet`, ... sit on the probe itself). */
export const ProbeHandlerMessage = message(`${K8S_CORE}.ProbeHandler`, {
  1: field.message('exec', ExecActionMessage),
  2: field.message('httpGet', HTTPGetActionMessage),
  3: field.message('tcpSocket', TCPSocketActionMessage),
  4: field.message('grpc', GRPCActionMessage),
});

export const ProbeMessage = message(`${K8S_CORE}.Probe`, {
  1: field.inline(ProbeHandlerMessage),
  2: field.int32('initialDelaySeconds'),
  3: field.int32('timeoutSeconds'),
  4: field.int32('periodSeconds'),
  5: field.int32('successThreshold'),
  6: field.int32('failureThreshold'),
  7: field.int64('terminationGracePeriodSeconds', KEEP_ZERO),
});

export const SleepActionMessage = message(`${K8S_CORE}.SleepAction`, {
  1: field.int64('seconds', KEEP_ZERO),
});

export const LifecycleHandlerMessage = message(`${K8S_CORE}.LifecycleHandler`, {
  1: field.message('exec', ExecActionMessage),
  2: field.message('httpGet', HTTPGetActionMessage),
  3: field.message('tcpSocket', TCPSocketActionMessage),
  4: field.message('sleep', SleepActionMessage),
});

export const LifecycleMessage = message(`${K8S_CORE}.Lifecycle`, {
  1: field.message('postStart', LifecycleHandlerMessage),
  2: field.message('preStop', LifecycleHandlerMessage),
  3: field.string('stopSignal', KEEP_ZERO),
});
