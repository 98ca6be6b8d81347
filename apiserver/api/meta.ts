/**
 * Shared pieces of every Kubernetes object: ObjectMeta, OwnerReference, LabelSelector,
 * Condition, Quantity, IntOrString, Time. Schema ids follow Kubernetes' OpenAPI names so
 * `kubectl explain` shows the same type names (<ObjectMeta>, <LabelSelector>, ...).
 *
 * Conventions for every schema in apiserver/api/:
 * - Fields are optional unless Kubernetes requires them on input; server-set fields too.
 * - `.describe()` carries the field documentation that `kubectl explain` prints.
 * - Lists that strategic merge patch merges by key carry `.meta(mergeByKey('name'))`;
 *   lists of scalars that merge as sets carry `.meta(mergeScalars)`. See patch-meta.ts.
 * - Incoming `null` values are dropped before validation (Go clients send
 *   `creationTimestamp: null`), so schemas need not be nullable.
 */
import { z } from 'zod';
import { atomicStruct, mergeByKey, mergeScalars } from './patch-meta.js';

const K8S_META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** Time is an RFC 3339 timestamp in UTC with seconds precision, e.g. 2026-11-22T06:34:25Z. */
export const TimeSchema = z.string().meta({ format: 'date-time' });
/** MicroTime is an RFC 3339 timestamp with microseconds (Event.eventTime, Lease times). */
export const MicroTimeSchema = z.string().meta({ format: 'date-time' });

/** Quantity is a Kubernetes resource quantity ("100m", "1Gi", 2). Numbers are kept as
 * their decimal string, as Kubernetes canonicalises them. */
export const QuantitySchema = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .meta({ id: 'io.k8s.apimachinery.pkg.api.resource.Quantity', 'x-kubernetes-int-or-string': true });

/** IntOrString holds either an integer or a string such as "25%". */
export const IntOrStringSchema = z
  .union([z.int32(), z.string()])
  .meta({ id: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString', 'x-kubernetes-int-or-string': true });

export const StringMapSchema = z.record(z.string(), z.string());

export const OwnerReferenceSchema = z
  .object({
    apiVersion: z.string().describe('API version of the referent.'),
    kind: z.string().describe('Kind of the referent.'),
    name: z.string().describe('Name of the referent.'),
    uid: z.string().describe('UID of the referent.'),
    controller: z.boolean().optional().describe('If true, this reference points to the managing controller.'),
    blockOwnerDeletion: z
      .boolean()
      .optional()
      .describe('If true, the owner cannot be deleted from storage until this reference is removed (foreground deletion).'),
  })
  .meta({
    id: `${K8S_META}.OwnerReference`,
    description: 'OwnerReference contains enough information to let you identify an owning object.',
    ...atomicStruct,
  });

export const ManagedFieldsEntrySchema = z
  .object({
    manager: z.string().optional(),
    operation: z.string().optional(),
    apiVersion: z.string().optional(),
    time: TimeSchema.optional(),
    fieldsType: z.string().optional(),
    fieldsV1: z.record(z.string(), z.unknown()).optional(),
    subresource: z.string().optional(),
  })
  .meta({
    id: `${K8S_META}.ManagedFieldsEntry`,
    description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
  });

export const ObjectMetaSchema = z
  .object({
    name: z.string().optional().describe('Name must be unique within a namespace. Cannot be updated.'),
    generateName: z.string().optional().describe('Optional prefix, used by the server to generate a unique name ONLY IF the Name field has not been provided.'),
    namespace: z.string().optional().describe('Namespace defines the space within which each name must be unique.'),
    uid: z.string().optional().describe('UID is the unique in time and space value for this object. Populated by the system.'),
    resourceVersion: z.string().optional().describe('An opaque value that represents the internal version of this object, used for optimistic concurrency.'),
    generation: z.number().int().optional().describe('A sequence number representing a specific generation of the desired state.'),
    creationTimestamp: TimeSchema.optional().describe('The time this object was created. Populated by the system.'),
    deletionTimestamp: TimeSchema.optional().describe('The time after which this resource will be deleted. Set by the server.'),
    deletionGracePeriodSeconds: z
      .number()
      .int()
      .optional()
      .describe('Seconds allowed for this object to gracefully terminate before it will be removed from the system.'),
    labels: StringMapSchema.optional().describe('Map of string keys and values that can be used to organize and categorize objects.'),
    annotations: StringMapSchema.optional().describe('Unstructured key value map stored with a resource.'),
    ownerReferences: z
      .array(OwnerReferenceSchema)
      .optional()
      .meta(mergeByKey('uid'))
      .describe('List of objects depended by this object. Garbage collection removes this object once all owners are gone.'),
    finalizers: z.array(z.string()).optional().meta(mergeScalars).describe('Must be empty before the object is deleted from the registry.'),
    managedFields: z
      .array(ManagedFieldsEntrySchema)
      .optional()
      .describe('Maps workflow-id and version to the set of fields that are managed by that workflow.'),
  })
  .meta({
    id: `${K8S_META}.ObjectMeta`,
    description: 'ObjectMeta is metadata that all persisted resources must have.',
  });

export type ObjectMeta = z.infer<typeof ObjectMetaSchema>;
export type ManagedFieldsEntry = z.infer<typeof ManagedFieldsEntrySchema>;
export type OwnerReference = z.infer<typeof OwnerReferenceSchema>;

export const LabelSelectorRequirementSchema = z
  .object({
    key: z.string().describe('key is the label key that the selector applies to.'),
    operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']).describe("operator represents a key's relationship to a set of values."),
    values: z.array(z.string()).optional().describe('values is an array of string values.'),
  })
  .meta({ id: `${K8S_META}.LabelSelectorRequirement` });

export const LabelSelectorSchema = z
  .object({
    matchLabels: StringMapSchema.optional().describe('matchLabels is a map of {key,value} pairs.'),
    matchExpressions: z
      .array(LabelSelectorRequirementSchema)
      .optional()
      .describe('matchExpressions is a list of label selector requirements. The requirements are ANDed.'),
  })
  .meta({
    id: `${K8S_META}.LabelSelector`,
    description: 'A label selector is a label query over a set of resources.',
    ...atomicStruct,
  });

export type LabelSelector = z.infer<typeof LabelSelectorSchema>;

/** Condition is metav1.Condition, used by newer kinds. Older kinds (Pod, Node, Deployment)
 * have their own condition shapes with lastUpdateTime/lastProbeTime. */
export const ConditionSchema = z
  .object({
    type: z.string(),
    status: z.enum(['True', 'False', 'Unknown']),
    observedGeneration: z.number().int().optional(),
    lastTransitionTime: TimeSchema.optional(),
    reason: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({ id: `${K8S_META}.Condition` });

/** kindConditionSchema is the condition shape most older built-in kinds share (ReplicaSet,
 * ReplicationController, DaemonSet, StatefulSet, HPA, Namespace, PVC): metav1.Condition without
 * observedGeneration. Each kind publishes it under its own OpenAPI name. */
export function kindConditionSchema(id: string, description: string, typeDescription = 'type of the condition.') {
  return z
    .object({
      type: z.string().describe(typeDescription),
      // The detail kube-apiserver's "Unsupported value" error carries.
      status: z
        .enum(['True', 'False', 'Unknown'], { error: () => 'supported values: "True", "False", "Unknown"' })
        .describe('status of the condition: True, False or Unknown.'),
      lastTransitionTime: TimeSchema.optional().describe('lastTransitionTime is the last time the condition changed status.'),
      reason: z.string().optional().describe('reason is a CamelCase word for the last transition.'),
      message: z.string().optional().describe('message is a human-readable explanation of the last transition.'),
    })
    .meta({ id, description });
}

/** typeMetaFields are the apiVersion/kind pair every object carries; each kind's schema
 * spreads them into its own object. The arguments only pin the literal types V and K. */
export function typeMetaFields<const V extends string, const K extends string>(_apiVersion: V, _kind: K) {
  return {
    // Plain strings in the schema (as Kubernetes publishes them); the API server checks them
    // against the served kind before validating, so a wrong one is a 400 naming both.
    apiVersion: z.string().optional().describe('APIVersion defines the versioned schema of this representation of an object.') as unknown as z.ZodOptional<
      z.ZodLiteral<V>
    >,
    kind: z.string().optional().describe('Kind is a string value representing the REST resource this object represents.') as unknown as z.ZodOptional<
      z.ZodLiteral<K>
    >,
    // Optional on input, always present on output: code inside the boundary can rely on it.
    metadata: ObjectMetaSchema.default(() => ({})).describe("Standard object's metadata."),
  };
}
