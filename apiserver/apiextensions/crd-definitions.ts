/**
 * A CustomResourceDefinition turned into what the server serves: one ResourceDefinition per
 * served version, all over one store resource (`<plural>.<group>`), with conversion
 * strategy None (only apiVersion changes between versions). Objects are unstructured: the
 * version's OpenAPI schema prunes, defaults and validates them (with its CEL rules), and is
 * what OpenAPI, patches and server-side apply read.
 */
import { z } from 'zod';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../api/apiextensions/index.js';
import { deepEqual } from '../api/deep-equal.js';
import { typeMetaFields } from '../api/meta.js';
import { ALL_VERBS, type FieldError, type KubeObject, type ResourceDefinition, type ScaleSubresource } from '../api/resource-definition.js';
import { validateCelRules } from './cel/index.js';
import { printColumnsFor } from './crd-columns.js';
import { compileJsonPath } from './json-path.js';
import { applyDefaults, type JSONSchemaProps, pruneUnknownFields, toSchemaDocument, validateStatusValue, validateValue } from './schema/index.js';
import { compareVersionPriority } from './version-priority.js';

/** servedNames are the names a CRD is served under: its accepted names (status), which the
 * naming controller settles, else (not yet accepted) its spec names. */
export function servedNames(crd: CustomResourceDefinition) {
  const spec = crd.spec.names;
  const accepted = crd.status?.acceptedNames;
  const plural = accepted?.plural || spec.plural;
  const kind = accepted?.kind || spec.kind;
  return {
    plural,
    kind,
    singular: accepted?.singular || spec.singular || kind.toLowerCase(),
    listKind: accepted?.listKind || spec.listKind || `${kind}List`,
    shortNames: accepted?.shortNames ?? spec.shortNames ?? [],
    categories: accepted?.categories ?? spec.categories ?? [],
  };
}

/** customResourceStorage is the store key shared by every version of a CRD's objects. */
export function customResourceStorage(crd: CustomResourceDefinition): string {
  return `${crd.spec.names.plural}.${crd.spec.group}`;
}

/** servedVersions lists the CRD's served versions in Kubernetes' priority order (v1 before v1beta1). */
export function servedVersions(crd: CustomResourceDefinition): CustomResourceDefinitionVersion[] {
  return crd.spec.versions.filter((v) => v.served).sort((a, b) => compareVersionPriority(a.name, b.name));
}

export interface DefinitionOptions {
  /** The CRD is being deleted: its objects can no longer be created. */
  terminating?: boolean;
}

/** definitionsFor builds the ResourceDefinitions of every served version of `crd`. */
export function definitionsFor(crd: CustomResourceDefinition, options: DefinitionOptions = {}): ResourceDefinition[] {
  return servedVersions(crd).map((version) => definitionFor(crd, version, options));
}

/** storageVersionDefinition builds the definition of the CRD's storage version, served or
 * not (the finalizer deletes the objects of a CRD none of whose versions is served). */
export function storageVersionDefinition(crd: CustomResourceDefinition): ResourceDefinition | undefined {
  const version = crd.spec.versions.find((v) => v.storage);
  return version ? definitionFor(crd, version, {}) : undefined;
}

function definitionFor(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion, options: DefinitionOptions): ResourceDefinition {
  const names = servedNames(crd);
  const group = crd.spec.group;
  const apiVersion = `${group}/${version.name}`;
  const schema = (version.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as JSONSchemaProps;
  const scale = scaleOf(version);
  const storage = crd.spec.versions.find((v) => v.storage)?.name === version.name;
  const defaults = (object: KubeObject) => {
    pruneUnknownFields(schema, object);
    applyDefaults(schema, object);
  };
  // Kubernetes defaults objects read from storage too (a default added to the CRD later shows
  // up on read); a non-storage version converts by changing apiVersion alone (strategy None).
  const fromStorage = (object: KubeObject) => {
    defaults(object);
    return object;
  };
  return {
    group,
    version: version.name,
    kind: names.kind,
    plural: names.plural,
    singular: names.singular,
    shortNames: names.shortNames,
    categories: names.categories,
    namespaced: crd.spec.scope === 'Namespaced',
    schema: z.looseObject({ ...typeMetaFields(apiVersion, names.kind) }) as unknown as z.ZodType<KubeObject>,
    openApiSchema: toSchemaDocument(schema, { group, version: version.name, kind: names.kind }),
    unstructured: true,
    defaults,
    validate: (object, old) => validateCustomResource(schema, scale, object, old, !!version.subresources?.status),
    tracksGeneration: true,
    subresources: { ...(version.subresources?.status ? { status: true } : {}), ...(scale ? { scale } : {}) },
    printColumns: printColumnsFor(version.additionalPrinterColumns),
    fieldSelectors: fieldSelectorsOf(version),
    ...(options.terminating ? { verbs: ALL_VERBS.filter((verb) => verb !== 'create') } : {}),
    storage: storage
      ? { resource: customResourceStorage(crd), fromStorage }
      : { resource: customResourceStorage(crd), toStorage: (object) => object, fromStorage },
  };
}

/** scaleOf maps the CRD's scale paths (`.spec.replicas`) to the dotted paths /scale uses. */
function scaleOf(version: CustomResourceDefinitionVersion): ScaleSubresource | undefined {
  const scale = version.subresources?.scale;
  if (!scale) return undefined;
  const dotted = (path: string) => path.replace(/^\./, '');
  return {
    specReplicasPath: dotted(scale.specReplicasPath),
    statusReplicasPath: dotted(scale.statusReplicasPath),
    ...(scale.labelSelectorPath ? { labelSelectorPath: dotted(scale.labelSelectorPath) } : {}),
  };
}

const BLOCKING: ReadonlySet<FieldError['type']> = new Set(['FieldValueNotSupported', 'FieldValueTypeInvalid']);

/** validateCustomResource is the custom resource strategy's validation: the schema (only
 * `status` for a /status write), the scale paths' replica counts, then the CEL rules —
 * skipped, as kube-apiserver skips them, when the object has wrong types or unsupported values. */
function validateCustomResource(
  schema: JSONSchemaProps,
  scale: ScaleSubresource | undefined,
  object: KubeObject,
  old: KubeObject | undefined,
  hasStatus: boolean,
): FieldError[] {
  const schemaErrors = hasStatus && isStatusWrite(object, old) ? validateStatusValue(schema, object) : validateValue(schema, object);
  const errors = [...schemaErrors, ...validateScale(scale, object)];
  if (errors.some((e) => BLOCKING.has(e.type))) {
    errors.push({
      type: 'FieldValueInvalid',
      field: '<nil>',
      value: 'null',
      detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    });
    return errors;
  }
  return [...errors, ...validateCelRules(schema, object, old)];
}

/** isStatusWrite: an update that changed nothing but status (and the server's bookkeeping),
 * which is what a /status write is for a kind with a status subresource. */
function isStatusWrite(object: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const rest = ({ status: _s, metadata, ...others }: KubeObject) => {
    const { managedFields: _f, resourceVersion: _r, ...meta } = metadata;
    return { ...others, metadata: meta };
  };
  return deepEqual(rest(object), rest(old));
}

const MAX_INT32 = 2147483647;

/** validateScale checks the replica counts the scale paths point to, worded as kube-apiserver. */
function validateScale(scale: ScaleSubresource | undefined, object: KubeObject): FieldError[] {
  if (!scale) return [];
  const errors: FieldError[] = [];
  for (const path of [scale.specReplicasPath, scale.statusReplicasPath]) {
    const value = path.split('.').reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), object);
    const field = `.${path}`;
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      errors.push({
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `.${path} accessor error: ${JSON.stringify(value)} is of the type ${typeName(value)}, expected int64`,
      });
    } else if (value < 0) {
      errors.push({ type: 'FieldValueInvalid', field, value, detail: 'should be a non-negative integer' });
    } else if (value > MAX_INT32) {
      errors.push({ type: 'FieldValueInvalid', field, value, detail: `should be less than or equal to ${MAX_INT32}` });
    }
  }
  return errors;
}

function typeName(value: unknown): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number') return 'float64';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** fieldSelectorsOf serves the version's selectableFields as field selectors (`spec.color`). */
function fieldSelectorsOf(version: CustomResourceDefinitionVersion): Record<string, (object: KubeObject) => string | undefined> | undefined {
  const fields = version.selectableFields ?? [];
  if (fields.length === 0) return undefined;
  return Object.fromEntries(
    fields.map(({ jsonPath }) => {
      const path = compileJsonPath(jsonPath);
      const get = (object: KubeObject) => {
        const value = path?.(object)[0];
        return value === undefined || value === null ? undefined : String(value);
      };
      return [jsonPath.replace(/^\./, ''), get];
    }),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
