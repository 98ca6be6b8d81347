/**
 * Protobuf tables of meta.ts: the apimachinery types every object embeds (ObjectMeta,
 * LabelSelector, OwnerReference) and the well-known types with a JSON form of their own
 * (Time, MicroTime, Quantity, IntOrString). Field numbers are those of
 * k8s.io/apimachinery/pkg/apis/meta/v1, pkg/api/resource and pkg/util/intstr generated.proto.
 */

import { rfc3339 } from './machinery/time.js';
import { field, KEEP_ZERO, message } from './protobuf/message-type.js';

const META_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** formatTime renders Unix seconds as Kubernetes' JSON time (RFC 3339, UTC, seconds precision). */
export function formatTime(seconds: number): string {
  return rfc3339(seconds * 1000);
}

/** formatMicroTime renders Unix seconds plus nanoseconds as RFC 3339 with microseconds. */
export function formatMicroTime(seconds: number, nanos: number): string {
  const micros = String(Math.floor(nanos / 1000)).padStart(6, '0');
  return `${formatTime(seconds).slice(0, -1)}.${micros}Z`;
}

// Time and MicroTime are Timestamp {1 seconds, 2 nanos}. A zero time is written as an empty
// message, which Go reads as the zero time (`null` in JSON), while the epoch has seconds 0
// present: hence KEEP_ZERO. Time drops the nanoseconds, as Kubernetes' Time.Unmarshal does.
const timestampFields = { 1: field.int64('seconds', KEEP_ZERO), 2: field.int32('nanos') };

/** TimeMessage is metav1.Time → `2026-11-22T06:34:25Z`; an empty message is no time at all. */
export const TimeMessage = message(`${META_V1}.Time`, timestampFields, ({ seconds }) => (typeof seconds === 'number' ? formatTime(seconds) : undefined));

/** MicroTimeMessage is metav1.MicroTime → `2026-11-22T06:34:25.123456Z`. */
export const MicroTimeMessage = message(`${META_V1}.MicroTime`, timestampFields, ({ seconds, nanos }) =>
  typeof seconds === 'number' ? formatMicroTime(seconds, typeof nanos === 'number' ? nanos : 0) : undefined,
);

/** QuantityMessage is resource.Quantity {1 string} → its string ("100m", "1Gi"). */
export const QuantityMessage = message('io.k8s.apimachinery.pkg.api.resource.Quantity', { 1: field.string('string') }, ({ string }) =>
  typeof string === 'string' && string !== '' ? string : '0',
);

/** IntOrStringMessage is intstr.IntOrString {1 type, 2 intVal, 3 strVal} → a number or a string. */
export const IntOrStringMessage = message(
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  { 1: field.int64('type'), 2: field.int32('intVal'), 3: field.string('strVal') },
  ({ type, intVal, strVal }) => (type === 1 ? (strVal ?? '') : (intVal ?? 0)),
);

/** FieldsV1Message is metav1.FieldsV1 {1 Raw}: raw JSON, embedded as JSON. */
export const FieldsV1Message = message(`${META_V1}.FieldsV1`, { 1: field.bytes('Raw') }, ({ Raw }) =>
  typeof Raw === 'string' ? JSON.parse(Buffer.from(Raw, 'base64').toString('utf8')) : undefined,
);

export const ManagedFieldsEntryMessage = message(`${META_V1}.ManagedFieldsEntry`, {
  1: field.string('manager'),
  2: field.string('operation'),
  3: field.string('apiVersion'),
  4: field.message('time', TimeMessage),
  6: field.string('fieldsType'),
  7: field.message('fieldsV1', FieldsV1Message),
  8: field.string('subresource'),
});

export const OwnerReferenceMessage = message(`${META_V1}.OwnerReference`, {
  1: field.string('kind', KEEP_ZERO),
  3: field.string('name', KEEP_ZERO),
  4: field.string('uid', KEEP_ZERO),
  5: field.string('apiVersion', KEEP_ZERO),
  6: field.bool('controller', KEEP_ZERO),
  7: field.bool('blockOwnerDeletion', KEEP_ZERO),
});

/** ObjectMetaMessage is metav1.ObjectMeta (selfLink, field 4, is gone from Kubernetes' JSON and skipped). */
export const ObjectMetaMessage = message(`${META_V1}.ObjectMeta`, {
  1: field.string('name'),
  2: field.string('generateName'),
  3: field.string('namespace'),
  5: field.string('uid'),
  6: field.string('resourceVersion'),
  7: field.int64('generation'),
  8: field.message('creationTimestamp', TimeMessage),
  9: field.message('deletionTimestamp', TimeMessage),
  10: field.int64('deletionGracePeriodSeconds', KEEP_ZERO),
  11: field.map('labels'),
  12: field.map('annotations'),
  13: field.repeated('ownerReferences', OwnerReferenceMessage),
  14: field.repeated('finalizers', 'string'),
  17: field.repeated('managedFields', ManagedFieldsEntryMessage),
});

export const LabelSelectorRequirementMessage = message(`${META_V1}.LabelSelectorRequirement`, {
  1: field.string('key', KEEP_ZERO),
  2: field.string('operator', KEEP_ZERO),
  3: field.repeated('values', 'string'),
});

export const LabelSelectorMessage = message(`${META_V1}.LabelSelector`, {
  1: field.map('matchLabels'),
  2: field.repeated('matchExpressions', LabelSelectorRequirementMessage),
});

/** ConditionMessage is metav1.Condition (newer kinds' conditions; ServiceStatus). */
/** kindConditionMessage is the protobuf table of meta.ts's kindConditionSchema shape as
 * ReplicaSet, ReplicationController and HPA number it. */
export function kindConditionMessage(name: string) {
  return message(name, {
    1: field.string('type', KEEP_ZERO),
    2: field.string('status', KEEP_ZERO),
    3: field.message('lastTransitionTime', TimeMessage),
    4: field.string('reason'),
    5: field.string('message'),
  });
}

export const ConditionMessage = message(`${META_V1}.Condition`, {
  1: field.string('type', KEEP_ZERO),
  2: field.string('status', KEEP_ZERO),
  3: field.int64('observedGeneration'),
  4: field.message('lastTransitionTime', TimeMessage),
  5: field.string('reason', KEEP_ZERO),
  6: field.string('message', KEEP_ZERO),
});
