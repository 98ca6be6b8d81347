/**
 * Field ownership and server-side apply: `metadata.managedFields` kept on every write, and
 * the apply merge with its conflicts — kube-apiserver's fieldmanager over
 * sigs.k8s.io/structured-merge-diff, written for kubesim's JSON-schema view of the kinds.
 *
 * Layers, bottom up: path elements and field sets with their FieldsV1 encoding; FieldType
 * (the schema as apply sees it); the value walkers (toFieldSet, compareValues, mergeValues,
 * removeFields); the ownership rules (ownership.ts); and the trackers the registry calls on
 * each write (field-tracker.ts, apply-tracker.ts).
 *
 * May import: apiserver/api, apiserver/registry (context and codec, for version
 * conversion). See docs/field-ownership.md.
 */
export { type ApplyTracker, type ApplyTrackerOptions, createApplyTracker } from './apply-tracker.js';
export { applyConflictError, describeManager } from './conflict-error.js';
export { FieldSet } from './field-set.js';
export { createUpdateTracker, type FieldTracker, type TrackerOptions } from './field-tracker.js';
export { FieldType } from './field-type.js';
export { decodeFieldsV1, encodeFieldsV1, type FieldsV1 } from './fields-v1.js';
export { LAST_APPLIED_ANNOTATION } from './last-applied.js';
export { createVersionConverter, type VersionConverter } from './versions.js';
export type { WriteSubresource } from './write-scope.js';
