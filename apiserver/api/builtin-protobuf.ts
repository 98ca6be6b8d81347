/**
 * protobufMessageFor: the protobuf table of a built-in kind whose objects may arrive as
 * `application/vnd.kubernetes.protobuf` bodies, named as the body's envelope names it
 * (`apiVersion`, `kind`). The tables are the definitions' `protobuf` field; the one body
 * that is not a served kind is autoscaling/v1 Scale (the /scale subresource of Deployments,
 * ReplicaSets, StatefulSets and custom resources), listed here. Custom resources take JSON
 * and YAML only, as in Kubernetes.
 */
import { ScaleMessage } from './autoscaling/horizontal-pod-autoscaler-v1-protobuf.js';
import { builtinDefinitions } from './builtin.js';
import type { MessageType } from './protobuf/message-type.js';
import { apiVersionOf } from './resource-definition.js';

const SUBRESOURCE_BODIES: Array<[apiVersion: string, kind: string, message: MessageType]> = [['autoscaling/v1', 'Scale', ScaleMessage]];

const byKind = new Map<string, MessageType>([
  ...builtinDefinitions().flatMap((def) => (def.protobuf ? [[`${apiVersionOf(def)}/${def.kind}`, def.protobuf] as const] : [])),
  ...SUBRESOURCE_BODIES.map(([apiVersion, kind, message]) => [`${apiVersion}/${kind}`, message] as const),
]);

/** protobufMessageFor returns the table of `apiVersion`/`kind`, or undefined when that kind
 * does not accept protobuf bodies. */
export function protobufMessageFor(apiVersion: string, kind: string): MessageType | undefined {
  return byKind.get(`${apiVersion}/${kind}`);
}
