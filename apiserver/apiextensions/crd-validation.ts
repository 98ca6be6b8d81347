/**
 * Validation of a CustomResourceDefinition, worded as apiextensions-apiserver's
 * ValidateCustomResourceDefinition(Update). Field paths follow the internal API kube-apiserver
 * validates: per-version schemas, subresources or printer columns that are identical in every
 * version are reported at the top level (`spec.validation.openAPIV3Schema`,
 * `spec.subresources`, `spec.additionalPrinterColumns`), as v1 → internal conversion moves them.
 */
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
} from '../api/apiextensions/index.js';
import { deepEqual } from '../api/deep-equal.js';
import type { FieldError } from '../api/resource-definition.js';
import { forbidden, invalid, isDns1035Label, isDns1123Subdomain, notSupported, required } from '../api/validation.js';
import { compileRules } from './cel/index.js';
import { isConditionTrue } from './crd-conditions.js';
import { type JSONSchemaProps, validateSchemaDefinition } from './schema/index.js';

const SCOPES = ['Cluster', 'Namespaced'];
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const API_APPROVAL = 'api-approved.kubernetes.io';

/** validateCrd validates a CRD on create (no `old`) or update. `specChanged` false skips the
 * spec (a status write, or an update that leaves the validated spec as it was). */
export function validateCrd(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  const specChanged = !old || !deepEqual(crd.spec, old.spec);
  const errors: FieldError[] = [];
  if (!old) errors.push(...validateName(crd));
  if (specChanged) errors.push(...validateSpec(crd));
  if (old && specChanged) errors.push(...validateSpecUpdate(crd, old));
  errors.push(...validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames'));
  errors.push(...validateStoredVersions(crd.status?.storedVersions ?? [], crd.spec.versions));
  errors.push(...validateApiApproval(crd, old));
  if (crd.spec.preserveUnknownFields && !old?.spec.preserveUnknownFields) {
    errors.push(
      invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'),
    );
  }
  return errors;
}

function validateName(crd: CustomResourceDefinition): FieldError[] {
  const name = crd.metadata.name ?? '';
  if (!name || name === `${crd.spec.names.plural}.${crd.spec.group}`) return [];
  return [invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group')];
}

/** Shared says, per per-version field, whether every version has the same value (then it is
 * validated once, at its top-level path). */
interface Shared {
  schema: boolean;
  subresources: boolean;
  columns: boolean;
}

function sharedFields(versions: readonly CustomResourceDefinitionVersion[]): Shared {
  const same = (pick: (v: CustomResourceDefinitionVersion) => unknown) => versions.every((v) => deepEqual(pick(v), pick(versions[0]!)));
  return {
    schema: versions.length > 0 && same((v) => v.schema),
    subresources: versions.length > 0 && same((v) => v.subresources),
    columns: versions.length > 0 && same((v) => v.additionalPrinterColumns ?? []),
  };
}

function validateSpec(crd: CustomResourceDefinition): FieldError[] {
  const { spec } = crd;
  const errors: FieldError[] = [...validateGroup(spec.group)];
  if (!spec.scope) errors.push(required('spec.scope'));
  else if (!SCOPES.includes(spec.scope)) errors.push(notSupported('spec.scope', spec.scope, SCOPES));
  const shared = sharedFields(spec.versions);
  const first = spec.versions[0];
  if (!(shared.schema && first?.schema?.openAPIV3Schema)) {
    spec.versions.forEach((v, i) => {
      if (!v.schema?.openAPIV3Schema) errors.push(required(`spec.versions[${i}].schema.openAPIV3Schema`));
    });
  }
  spec.versions.forEach((version, i) => errors.push(...validateVersion(version, `spec.versions[${i}]`, shared)));
  errors.push(...validateVersionSet(spec.versions));
  errors.push(...requiredNames(spec.names));
  errors.push(...validateNames(spec.names, 'spec.names'));
  if (first && shared.schema && first.schema?.openAPIV3Schema) {
    const statusEnabled = spec.versions.some((v) => v.subresources?.status);
    errors.push(...validateSchema(first.schema.openAPIV3Schema as JSONSchemaProps, 'spec.validation.openAPIV3Schema', statusEnabled));
  }
  if (first && shared.subresources) errors.push(...validateSubresources(first, 'spec.subresources'));
  if (first && shared.columns) errors.push(...validateColumns(first.additionalPrinterColumns, 'spec.additionalPrinterColumns'));
  errors.push(...validateConversion(crd));
  return errors;
}

function validateGroup(group: string): FieldError[] {
  if (!group) return [required('spec.group')];
  const problems = isDns1123Subdomain(group);
  if (problems.length > 0) return [invalid('spec.group', group, problems.join(','))];
  if (group.split('.').length < 2) return [invalid('spec.group', group, 'should be a domain with at least one dot')];
  return [];
}

function validateVersion(version: CustomResourceDefinitionVersion, path: string, shared: Shared): FieldError[] {
  const errors: FieldError[] = [];
  const nameProblems = isDns1035Label(version.name);
  if (nameProblems.length > 0) errors.push(invalid(`${path}.name`, version.name, nameProblems.join(',')));
  if (version.deprecationWarning !== undefined) {
    if (!version.deprecated) errors.push(invalid(`${path}.deprecationWarning`, version.deprecationWarning, 'can only be set for deprecated versions'));
    else if (version.deprecationWarning.length > 256)
      errors.push(invalid(`${path}.deprecationWarning`, version.deprecationWarning, 'must be <= 256 characters long'));
    else if (version.deprecationWarning.length === 0)
      errors.push(invalid(`${path}.deprecationWarning`, version.deprecationWarning, 'must not be an empty string'));
  }
  const schema = version.schema?.openAPIV3Schema;
  if (!shared.schema && schema) errors.push(...validateSchema(schema as JSONSchemaProps, `${path}.schema.openAPIV3Schema`, !!version.subresources?.status));
  if (!shared.subresources) errors.push(...validateSubresources(version, `${path}.subresources`));
  if (!shared.columns) errors.push(...validateColumns(version.additionalPrinterColumns, `${path}.additionalPrinterColumns`));
  return errors;
}

function validateVersionSet(versions: readonly CustomResourceDefinitionVersion[]): FieldError[] {
  const errors: FieldError[] = [];
  const names = versions.map((v) => v.name);
  if (new Set(names).size !== names.length) errors.push(invalid('spec.versions', versions, 'must contain unique version names'));
  if (versions.filter((v) => v.storage).length !== 1)
    errors.push(invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  return errors;
}

function requiredNames(names: CustomResourceDefinitionNames): FieldError[] {
  const fields = ['plural', 'singular', 'kind', 'listKind'] as const;
  return fields.filter((f) => !names[f]).map((f) => required(`spec.names.${f}`));
}

/** validateNames is ValidateCustomResourceDefinitionNames: DNS-1035 labels, kinds may be mixed case. */
export function validateNames(names: Partial<CustomResourceDefinitionNames>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const label = (field: string, value: string | undefined) => {
    const problems = value ? isDns1035Label(value) : [];
    if (problems.length > 0) errors.push(invalid(`${path}.${field}`, value, problems.join(',')));
  };
  const kindLike = (field: string, value: string | undefined) => {
    const problems = value ? isDns1035Label(value.toLowerCase()) : [];
    if (problems.length > 0) errors.push(invalid(`${path}.${field}`, value, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
  };
  label('plural', names.plural);
  label('singular', names.singular);
  kindLike('kind', names.kind);
  kindLike('listKind', names.listKind);
  (names.shortNames ?? []).forEach((s, i) => label(`shortNames[${i}]`, s));
  if (names.kind && names.kind === names.listKind) errors.push(invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => label(`categories[${i}]`, c));
  return errors;
}

/** ROOT_FIELDS_WITH_STATUS are the only schema fields allowed at the root when the status
 * subresource is enabled (JSON name → the Go field name kube-apiserver's message lists). */
const ROOT_FIELDS_WITH_STATUS: Record<string, string> = {
  description: 'Description',
  type: 'Type',
  format: 'Format',
  title: 'Title',
  maximum: 'Maximum',
  exclusiveMaximum: 'ExclusiveMaximum',
  minimum: 'Minimum',
  exclusiveMinimum: 'ExclusiveMinimum',
  maxLength: 'MaxLength',
  minLength: 'MinLength',
  pattern: 'Pattern',
  maxItems: 'MaxItems',
  minItems: 'MinItems',
  uniqueItems: 'UniqueItems',
  multipleOf: 'MultipleOf',
  required: 'Required',
  items: 'Items',
  properties: 'Properties',
  externalDocs: 'ExternalDocs',
  example: 'Example',
  'x-kubernetes-preserve-unknown-fields': 'XPreserveUnknownFields',
  'x-kubernetes-validations': 'XValidations',
};

function validateSchema(schema: JSONSchemaProps, path: string, statusEnabled: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (statusEnabled) errors.push(...validateRootWithStatus(schema, path));
  const root = schema as Record<string, unknown>;
  if (root['nullable'] === true) errors.push(forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  errors.push(...validateSchemaDefinition(schema, path));
  errors.push(...compileRules(schema, path));
  return errors;
}

function validateRootWithStatus(schema: JSONSchemaProps, path: string): FieldError[] {
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (isZero(value)) continue;
    if (key === 'type') {
      if (value !== 'object')
        return [invalid(`${path}.type`, value, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!(key in ROOT_FIELDS_WITH_STATUS)) {
      const allowed = `[${Object.values(ROOT_FIELDS_WITH_STATUS).join(' ')}]`;
      return [invalid(path, schema, `only ${allowed} fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

function isZero(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 0) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function validateSubresources(version: CustomResourceDefinitionVersion, path: string): FieldError[] {
  const scale = version.subresources?.scale;
  if (!scale) return [];
  const errors: FieldError[] = [];
  const check = (field: string, value: string | undefined, prefixes: string[], where: string, isRequired: boolean) => {
    const at = `${path}.scale.${field}`;
    if (!value) {
      if (isRequired) errors.push(required(at));
      return;
    }
    const simple = simpleJsonPathErrors(value, at);
    if (simple.length > 0) errors.push(...simple);
    else if (!prefixes.some((p) => value.startsWith(p))) errors.push(invalid(at, value, `should be a json path under ${where}`));
  };
  check('specReplicasPath', scale.specReplicasPath, ['.spec.'], '.spec', true);
  check('statusReplicasPath', scale.statusReplicasPath, ['.status.'], '.status', true);
  check('labelSelectorPath', scale.labelSelectorPath, ['.spec.', '.status.'], 'either .spec or .status', false);
  return errors;
}

function simpleJsonPathErrors(path: string, field: string): FieldError[] {
  if (path.length === 0) return [invalid(field, path, 'must not be empty')];
  if (!path.startsWith('.')) return [invalid(field, path, 'must be a simple json path starting with .')];
  return [];
}

function validateColumns(columns: readonly CustomResourceColumnDefinition[] | undefined, path: string): FieldError[] {
  return (columns ?? []).flatMap((column, i) => {
    const at = `${path}[${i}]`;
    const errors: FieldError[] = [];
    if (!column.name) errors.push(required(`${at}.name`));
    if (!column.type) errors.push({ ...required(`${at}.type`), detail: `must be one of ${COLUMN_TYPES.join(',')}` });
    else if (!COLUMN_TYPES.includes(column.type)) errors.push(invalid(`${at}.type`, column.type, `must be one of ${COLUMN_TYPES.join(',')}`));
    if (column.format && !COLUMN_FORMATS.includes(column.format))
      errors.push(invalid(`${at}.format`, column.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
    if (!column.jsonPath) errors.push(required(`${at}.JSONPath`));
    else errors.push(...simpleJsonPathErrors(column.jsonPath, `${at}.JSONPath`));
    return errors;
  });
}

function validateConversion(crd: CustomResourceDefinition): FieldError[] {
  const conversion = crd.spec.conversion;
  if (!conversion) return [];
  const errors: FieldError[] = [];
  const strategies = ['None', 'Webhook'];
  if (!conversion.strategy) errors.push(required('spec.conversion.strategy'));
  else if (!strategies.includes(conversion.strategy)) errors.push(notSupported('spec.conversion.strategy', conversion.strategy, strategies));
  if (conversion.strategy === 'Webhook') {
    if (!conversion.webhook?.clientConfig)
      errors.push({ ...required('spec.conversion.webhookClientConfig'), detail: 'required when strategy is set to Webhook' });
    if ((conversion.webhook?.conversionReviewVersions ?? []).length === 0) errors.push(required('spec.conversion.conversionReviewVersions'));
  } else if (conversion.webhook?.clientConfig) {
    errors.push(forbidden('spec.conversion.webhookClientConfig', 'should not be set when strategy is not set to Webhook'));
  }
  return errors;
}

function validateSpecUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const errors: FieldError[] = [];
  const immutable = (path: string, next: unknown, prev: unknown) => {
    if (!deepEqual(next, prev)) errors.push(invalid(path, next, 'field is immutable'));
  };
  if (isConditionTrue(old, 'Established')) {
    immutable('spec.scope', crd.spec.scope, old.spec.scope);
    immutable('spec.names.kind', crd.spec.names.kind, old.spec.names.kind);
  }
  immutable('spec.group', crd.spec.group, old.spec.group);
  immutable('spec.names.plural', crd.spec.names.plural, old.spec.names.plural);
  return errors;
}

function validateStoredVersions(stored: readonly string[], versions: readonly CustomResourceDefinitionVersion[]): FieldError[] {
  const field = 'status.storedVersions';
  if (stored.length === 0) return [invalid(field, stored, 'must have at least one stored version')];
  const errors: FieldError[] = [];
  for (const v of versions) if (v.storage && !stored.includes(v.name)) errors.push(invalid(field, stored, `must have the storage version ${v.name}`));
  stored.forEach((name, i) => {
    if (versions.some((v) => v.name === name)) return;
    const detail = `missing from spec.versions; ${name} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${name} and removes ${name} from status.storedVersions`;
    errors.push(invalid(`${field}[${i}]`, name, detail));
  });
  return errors;
}

type ApprovalState = 'missing' | 'bypassed' | 'approved' | 'invalid';

function approvalState(annotations: Record<string, string> | undefined): ApprovalState {
  const value = annotations?.[API_APPROVAL] ?? '';
  if (value === '') return 'missing';
  if (value.startsWith('unapproved')) return 'bypassed';
  try {
    const url = new URL(value);
    return url.host && url.protocol ? 'approved' : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** validateApiApproval: CRDs in the protected *.k8s.io and *.kubernetes.io groups need the
 * api-approved.kubernetes.io annotation (a URL, or a reason starting with "unapproved"). */
function validateApiApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  const group = crd.spec.group;
  const isProtected = ['k8s.io', 'kubernetes.io'].some((d) => group === d || group.endsWith(`.${d}`));
  if (!isProtected) return [];
  const state = approvalState(crd.metadata.annotations);
  if (old && approvalState(old.metadata.annotations) === state) return [];
  const field = `metadata.annotations[${API_APPROVAL}]`;
  if (state === 'missing')
    return [
      {
        ...required(field),
        detail: `protected groups must have approval annotation "${API_APPROVAL}", see https://github.com/kubernetes/enhancements/pull/1111`,
      },
    ];
  if (state === 'invalid') {
    return [
      invalid(
        field,
        crd.metadata.annotations?.[API_APPROVAL],
        `protected groups must have approval annotation "${API_APPROVAL}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
      ),
    ];
  }
  return [];
}
