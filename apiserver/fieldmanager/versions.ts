/**
 * Managers keep the apiVersion they wrote with; to compare a write with the fields such a
 * manager owns, both objects are converted to that version (through the storage version),
 * as kube-apiserver's fieldmanager converts them.
 */
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { schemaDocumentFor } from '../api/schema-node.js';
import { type RegistryContext, storageDefinitionOf } from '../registry/context.js';
import { toServed, toStored } from '../registry/object-codec.js';
import { FieldType } from './field-type.js';

/** VersionView is an object as another served version of its kind shows it. */
export interface VersionView {
  object: KubeObject;
  type: FieldType;
}

/** VersionConverter converts an object of the request's version to `apiVersion`; undefined
 * when the kind is not served at that version. Throws when the conversion fails. */
export type VersionConverter = (object: KubeObject, apiVersion: string) => VersionView | undefined;

/** createVersionConverter converts objects of `def` through the kind's storage version. */
export function createVersionConverter(ctx: RegistryContext, def: ResourceDefinition): VersionConverter {
  return (object, apiVersion) => {
    const slash = apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
    if (group !== def.group) return undefined;
    const other = ctx.registry.find(def.group, version, def.plural);
    if (!other) return undefined;
    const stored = toStored(def, structuredClone(object), storageDefinitionOf(ctx, def));
    return { object: toServed(other, stored), type: FieldType.root(schemaDocumentFor(other)) };
  };
}
