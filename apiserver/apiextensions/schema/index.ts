/**
 * The structural schema engine of CustomResourceDefinitions (apiextensions.k8s.io/v1), as
 * kube-apiserver runs it:
 *
 * - validateSchemaDefinition: is a CRD version's openAPIV3Schema structural and well-formed?
 * - pruneUnknownFields → applyDefaults → validateValue: what happens to a custom object on
 *   its way in (and, pruning and defaulting, on its way out of storage);
 * - toSchemaDocument: the schema as published (OpenAPI v3) and walked by apply/patch code.
 *
 * CEL rules (x-kubernetes-validations) are only checked statically here; another module
 * compiles and evaluates them.
 */

export { applyDefaults } from './defaults.js';
export { validateEmbeddedResources } from './embedded-resource.js';
export { validateListSetsAndMaps } from './list-type.js';
export { validateAgainstSchema } from './openapi-validator.js';
export { pruneUnknownFields } from './prune.js';
export { modelName, toSchemaDocument } from './to-schema-node.js';
export type { ExternalDocumentation, JSONSchemaProps, ValidationRule } from './types.js';
export { validateSchemaDefinition } from './validate-definition.js';
export { validateStatusValue, validateValue } from './validate-value.js';
export { resolveFieldPath } from './validation-rules.js';
export { JSONSchemaPropsSchema } from './zod-schema.js';
