/**
 * protobufMessageFor: the protobuf table of a built-in kind whose objects may arrive as
 * `application/vnd.kubernetes.protobuf` bodies, named as the body's envelope names it
 * (`apiVersion`, `kind`). The tables are the definitions' `protobuf` field; the bodies
 * that are not served kinds are autoscaling/v1 Scale (the /scale subresource of Deployments,
 * ReplicaSets, StatefulSets and custom resources) and authentication/v1 TokenRequest (the
 * /token subresource of ServiceAccounts), listed here. Custom resources take JSON
 * and YAML only, as in Kubernetes.
 */
import { TokenRequestMessage } from './authentication/authentication-protobuf.js';
import { ScaleMessage } from './autoscaling/horizontal-pod-autoscaler-v1-protobuf.js';
import { builtinDefinitions } from './builtin.js';
import type { MessageType } from './protobuf/message-type.js';
import { apiVersionOf } from './resource-definition.js';

const SUBRESOURCE_BODIES: Array<[apiVersion: string, kind: string, message: MessageType]> = [
  ['autoscaling/v1', 'Scale', ScaleMessage],
  ['authentication.k8s.io/v1', 'TokenRequest', TokenRequestMessage],
];

const byKind = new Map<string, MessageType>([
  ...builtinDefinitions().flatMap((def) => (def.protobuf ? [[`${apiVersionOf(def)}/${def.kind}`, def.protobuf] as const] : [])),
  ...SUBRESOURCE_BODIES.map(([apiVersion, kind, message]) => [`${apiVersion}/${kind}`, message] as const),
]);

/** protobufMessageFor returns the table of `apiVersion`/`kind`, or undefined when that kind
 * does not accept protobuf bodies. */
export function protobufMessageFor(apiVersion: string, kind: string): MessageType | undefined {
  return byKind.get(`${apiVersion}/${kind}`);
}
