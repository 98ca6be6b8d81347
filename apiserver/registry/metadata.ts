/**
 * Server-owned metadata, as kube-apiserver's generic registry maintains it: uid,
 * creationTimestamp, generation, names from generateName, and the fields a client can never
 * change on update. Also the metadata validation every kind shares.
 */

import { deepEqual } from '../api/deep-equal.js';
import type { Random } from '../api/machinery/random.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { FieldError, KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { required, tooLong, validateLabels, validateName } from '../api/validation.js';

// Kubernetes' generateName alphabet: no vowels (no accidental words) and no look-alikes.
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** generateNameSuffix returns the random 5-character suffix Kubernetes appends to generateName. */
export function generateNameSuffix(random: Random): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[random.int(NAME_ALPHABET.length)];
  return suffix;
}

/** prepareForCreate sets the server-owned metadata of a new object (its uid drawn from
 * `uids`) and resets status for kinds whose status only the /status subresource writes.
 * Mutates `object`. */
export function prepareForCreate(def: ResourceDefinition, object: KubeObject, nowMs: number, uids: Random): void {
  const meta = object.metadata;
  meta.uid = uids.uuid();
  meta.creationTimestamp = rfc3339(nowMs);
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (def.tracksGeneration) meta.generation = 1;
  else delete meta.generation;
  // Go structs serialize an empty status as `{}`; an unstructured object simply has none.
  if (def.subresources.status && !def.keepStatusOnCreate) {
    if (def.unstructured) delete object['status'];
    else object['status'] = {};
  }
  omitEmptyMetadata(object);
}

/** OMIT_EMPTY are the metadata maps and lists Kubernetes serializes with omitempty. */
const OMIT_EMPTY = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

/** omitEmptyMetadata drops empty labels/annotations/finalizers/ownerReferences, as Go's
 * omitempty does: `kubectl label x key-` on the last label leaves no `labels: {}`. */
function omitEmptyMetadata(object: KubeObject): void {
  const meta = object.metadata as Record<string, unknown>;
  for (const field of OMIT_EMPTY) {
    const value = meta[field];
    if (value !== null && typeof value === 'object' && Object.keys(value).length === 0) delete meta[field];
  }
}

/** SERVER_OWNED are the metadata fields an update can never change. */
const SERVER_OWNED = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const;

/** carryServerFields copies server-owned metadata from the current object into the next one
 * and bumps generation when the spec (anything but metadata and status) changed. */
export function carryServerFields(def: ResourceDefinition, current: KubeObject, next: KubeObject): void {
  const from = current.metadata as Record<string, unknown>;
  const to = next.metadata as Record<string, unknown>;
  for (const field of SERVER_OWNED) {
    if (from[field] === undefined) delete to[field];
    else to[field] = from[field];
  }
  if (current.metadata['managedFields'] !== undefined && next.metadata['managedFields'] === undefined) {
    next.metadata['managedFields'] = current.metadata['managedFields'];
  }
  if (def.tracksGeneration && specChanged(def, current, next)) next.metadata.generation = (current.metadata.generation ?? 0) + 1;
  omitEmptyMetadata(next);
}

function specChanged(def: ResourceDefinition, current: KubeObject, next: KubeObject): boolean {
  // A custom resource without a status subresource counts its status as spec, as
  // kube-apiserver's custom resource strategy does.
  const statusIsSpec = def.unstructured === true && !def.subresources.status;
  const strip = ({ metadata: _m, status, apiVersion: _a, kind: _k, ...rest }: KubeObject) => (statusIsSpec ? { ...rest, status } : rest);
  return !deepEqual(strip(current), strip(next));
}

/** validateMetadata checks what every kind shares: name, labels, annotation keys, and that a
 * deleting object gains no new finalizers. */
export function validateMetadata(def: ResourceDefinition, object: KubeObject, old?: KubeObject): FieldError[] {
  const meta = object.metadata;
  const errors: FieldError[] = [];
  if (!meta.name) errors.push({ ...required('metadata.name'), detail: 'name or generateName is required' });
  else errors.push(...validateName(meta.name, def.nameRule ?? 'dns1123-subdomain'));
  errors.push(...validateLabels(meta.labels, 'metadata.labels'));
  const annotationBytes = Object.entries(meta.annotations ?? {}).reduce((n, [k, v]) => n + k.length + v.length, 0);
  if (annotationBytes > 256 * 1024) errors.push(tooLong('metadata.annotations', 256 * 1024));
  if (old?.metadata.deletionTimestamp) errors.push(...noNewFinalizers(old, object));
  return errors;
}

function noNewFinalizers(old: KubeObject, object: KubeObject): FieldError[] {
  const added = (object.metadata.finalizers ?? []).filter((f) => !(old.metadata.finalizers ?? []).includes(f));
  if (added.length === 0) return [];
  return [
    {
      type: 'FieldValueForbidden',
      field: 'metadata.finalizers',
      detail: `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
    },
  ];
}
