/**
 * The CustomResourceDefinition strategy (apiextensions-apiserver's registry for CRDs): a new
 * CRD starts with an empty status that records its storage version, every write is validated
 * (schemas included), and the first delete adds the customresourcecleanup finalizer and the
 * Terminating condition so the finalizer (crd-establisher.ts) can remove its custom
 * resources before the CRD goes.
 */
import { badRequest, invalid } from '../api/api-error.js';
import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, type CustomResourceDefinition, customResourceDefinitionDefinition } from '../api/apiextensions/index.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { KindStrategy, KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { validateMetadata } from '../registry/metadata.js';
import { formatPath } from '../registry/object-codec.js';
import { setCondition } from './crd-conditions.js';
import { validateCrd } from './crd-validation.js';
import { JSONSchemaPropsSchema } from './schema/index.js';

const asCrd = (object: KubeObject) => object as unknown as CustomResourceDefinition;

/** recordStorageVersion adds the current storage version to status.storedVersions. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions.find((v) => v.storage)?.name;
  if (!storage) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage)) stored.push(storage);
}

/** decodeSchemas reads every version's openAPIV3Schema as Go decodes JSONSchemaProps:
 * keywords of the wrong JSON type are a 400, unknown keywords are dropped. */
function decodeSchemas(crd: CustomResourceDefinition): void {
  crd.spec.versions.forEach((version, i) => {
    const schema = version.schema?.openAPIV3Schema;
    if (!version.schema || schema === undefined) return;
    const parsed = JSONSchemaPropsSchema.safeParse(schema);
    if (parsed.success) {
      version.schema.openAPIV3Schema = parsed.data as Record<string, unknown>;
      return;
    }
    const issue = parsed.error.issues[0];
    const path = formatPath([`spec.versions[${i}].schema.openAPIV3Schema`, ...(issue?.path ?? [])]);
    throw badRequest(
      `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: ${path}: ${issue?.message ?? 'invalid schema'}`,
    );
  });
}

/** validated throws the 422 naming every problem of the CRD, metadata first. */
function validated(object: KubeObject, old?: KubeObject): void {
  const def = customResourceDefinitionDefinition as unknown as ResourceDefinition;
  const errors = [...validateMetadata(def, object, old), ...validateCrd(asCrd(object), old && asCrd(old))];
  if (errors.length === 0) return;
  const { group, plural: resource, kind } = customResourceDefinitionDefinition;
  throw invalid({ group, resource, kind, name: object.metadata.name ?? '' }, errors);
}

export const crdStrategy: KindStrategy = {
  beforeCreate(object) {
    const crd = asCrd(object);
    crd.status = { acceptedNames: { plural: '', kind: '' } };
    recordStorageVersion(crd);
    decodeSchemas(crd);
    validated(object);
  },
  beforeUpdate(object, old) {
    recordStorageVersion(asCrd(object));
    decodeSchemas(asCrd(object));
    validated(object, old);
  },
  onMarkedForDeletion(object) {
    const finalizers = (object.metadata.finalizers ??= []);
    if (!finalizers.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) finalizers.push(CUSTOM_RESOURCE_CLEANUP_FINALIZER);
    const message = 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon';
    const now = object.metadata.deletionTimestamp ?? rfc3339(Date.now());
    setCondition(asCrd(object), { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message }, now);
  },
};
