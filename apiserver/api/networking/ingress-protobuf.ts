/** Protobuf tables of ingress.ts (k8s.io/api/networking/v1 generated.proto): what
 * `kubectl create ingress` (kubectl ≥ 1.32) posts. */
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const NETWORKING_V1 = 'io.k8s.api.networking.v1';

/** TypedLocalObjectReferenceMessage is core/v1's (apiGroup is a pointer; kind and name have no omitempty). */
export const TypedLocalObjectReferenceMessage = message('io.k8s.api.core.v1.TypedLocalObjectReference', {
  1: field.string('apiGroup', KEEP_ZERO),
  2: field.string('kind', KEEP_ZERO),
  3: field.string('name', KEEP_ZERO),
});

const IngressBackendMessage = message(`${NETWORKING_V1}.IngressBackend`, {
  3: field.message('resource', TypedLocalObjectReferenceMessage),
  4: field.message(
    'service',
    message(`${NETWORKING_V1}.IngressServiceBackend`, {
      1: field.string('name', KEEP_ZERO),
      2: field.message('port', message(`${NETWORKING_V1}.ServiceBackendPort`, { 1: field.string('name'), 2: field.int32('number') })),
    }),
  ),
});

const HTTPIngressPathMessage = message(`${NETWORKING_V1}.HTTPIngressPath`, {
  1: field.string('path'),
  2: field.message('backend', IngressBackendMessage),
  3: field.string('pathType', KEEP_ZERO),
});

const IngressRuleValueMessage = message(`${NETWORKING_V1}.IngressRuleValue`, {
  1: field.message('http', message(`${NETWORKING_V1}.HTTPIngressRuleValue`, { 1: field.repeated('paths', HTTPIngressPathMessage) })),
});

const IngressSpecMessage = message(`${NETWORKING_V1}.IngressSpec`, {
  1: field.message('defaultBackend', IngressBackendMessage),
  2: field.repeated('tls', message(`${NETWORKING_V1}.IngressTLS`, { 1: field.repeated('hosts', 'string'), 2: field.string('secretName') })),
  3: field.repeated('rules', message(`${NETWORKING_V1}.IngressRule`, { 1: field.string('host'), 2: field.inline(IngressRuleValueMessage) })),
  4: field.string('ingressClassName', KEEP_ZERO),
});

const IngressPortStatusMessage = message(`${NETWORKING_V1}.IngressPortStatus`, {
  1: field.int32('port', KEEP_ZERO),
  2: field.string('protocol', KEEP_ZERO),
  3: field.string('error', KEEP_ZERO),
});

const IngressStatusMessage = message(`${NETWORKING_V1}.IngressStatus`, {
  1: field.message(
    'loadBalancer',
    message(`${NETWORKING_V1}.IngressLoadBalancerStatus`, {
      1: field.repeated(
        'ingress',
        message(`${NETWORKING_V1}.IngressLoadBalancerIngress`, {
          1: field.string('ip'),
          2: field.string('hostname'),
          4: field.repeated('ports', IngressPortStatusMessage),
        }),
      ),
    }),
  ),
});

export const IngressMessage = message(`${NETWORKING_V1}.Ingress`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', IngressSpecMessage),
  3: field.message('status', IngressStatusMessage),
});
