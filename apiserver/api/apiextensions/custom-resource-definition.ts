/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition: the schema and the served kind. What a
 * CRD means at run time (validation of its schemas, serving its custom resources, the
 * NamesAccepted/Established/Terminating conditions) lives in apiserver/apiextensions/,
 * which this package may not import; it reaches the write path through the kind's strategy.
 */
import { z } from 'zod';
import { TimeSchema, typeMetaFields } from '../meta.js';
import type { ResourceDefinition } from '../resource-definition.js';

const APIEXTENSIONS_V1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/** CRD_STORAGE_RESOURCE is the store key of CustomResourceDefinitions. */
export const CRD_STORAGE_RESOURCE = 'customresourcedefinitions.apiextensions.k8s.io';

/** CUSTOM_RESOURCE_CLEANUP_FINALIZER holds a deleted CRD until its custom resources are gone. */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

const atomicList = { 'x-kubernetes-list-type': 'atomic' } as const;

export const CustomResourceDefinitionNamesSchema = z
  .object({
    plural: z.string().describe('plural is the plural name of the resource to serve (lowercase), e.g. `crontabs`. Must be all lowercase.'),
    singular: z.string().optional().describe('singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.'),
    shortNames: z.array(z.string()).optional().meta(atomicList).describe('shortNames are short names for the resource, exposed in API discovery documents.'),
    kind: z.string().describe('kind is the serialized kind of the resource. It is normally CamelCase and singular.'),
    listKind: z.string().optional().describe('listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'),
    categories: z
      .array(z.string())
      .optional()
      .meta(atomicList)
      .describe("categories is a list of grouped resources this custom resource belongs to (e.g. 'all')."),
  })
  .meta({
    id: `${APIEXTENSIONS_V1}.CustomResourceDefinitionNames`,
    description: 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition',
  });

// The JSONSchemaProps tree is recursive and validated by apiserver/apiextensions/schema; here
// it is kept as an opaque object, as kube-apiserver's own OpenAPI keeps it open-ended.
const JSONSchemaPropsSchema = z
  .record(z.string(), z.unknown())
  .meta({ 'x-kubernetes-preserve-unknown-fields': true })
  .describe('JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).');

export const CustomResourceColumnDefinitionSchema = z
  .object({
    name: z.string().describe('name is a human readable name for the column.'),
    type: z.string().describe('type is an OpenAPI type definition for this column: integer, number, string, boolean or date.'),
    format: z.string().optional().describe('format is an optional OpenAPI type definition for this column.'),
    description: z.string().optional().describe('description is a human readable description of this column.'),
    priority: z.int32().optional().describe('priority is an integer defining the relative importance of this column; 0 is shown in standard view.'),
    jsonPath: z
      .string()
      .describe(
        'jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.',
      ),
  })
  .meta({
    id: `${APIEXTENSIONS_V1}.CustomResourceColumnDefinition`,
    description: 'CustomResourceColumnDefinition specifies a column for server side printing.',
  });

export const CustomResourceSubresourceScaleSchema = z
  .object({
    specReplicasPath: z.string().describe('specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`.'),
    statusReplicasPath: z
      .string()
      .describe('statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`.'),
    labelSelectorPath: z
      .string()
      .optional()
      .describe('labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.'),
  })
  .meta({ id: `${APIEXTENSIONS_V1}.CustomResourceSubresourceScale` });

export const CustomResourceSubresourcesSchema = z
  .object({
    status: z.record(z.string(), z.unknown()).optional().describe('status indicates the custom resource should serve a `/status` subresource.'),
    scale: CustomResourceSubresourceScaleSchema.optional().describe(
      'scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.',
    ),
  })
  .meta({ id: `${APIEXTENSIONS_V1}.CustomResourceSubresources` });

export const CustomResourceDefinitionVersionSchema = z
  .object({
    name: z.string().describe('name is the version name, e.g. “v1”, “v2beta1”, etc.'),
    served: z.boolean().describe('served is a flag enabling/disabling this version from being served via REST APIs'),
    storage: z
      .boolean()
      .describe(
        'storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.',
      ),
    deprecated: z.boolean().optional().describe('deprecated indicates this version of the custom resource API is deprecated.'),
    deprecationWarning: z.string().optional().describe('deprecationWarning overrides the default warning returned to API clients.'),
    schema: z
      .object({ openAPIV3Schema: JSONSchemaPropsSchema.optional().describe('openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.') })
      .optional()
      .describe('schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.'),
    subresources: CustomResourceSubresourcesSchema.optional().describe(
      'subresources specify what subresources this version of the defined custom resource have.',
    ),
    additionalPrinterColumns: z
      .array(CustomResourceColumnDefinitionSchema)
      .optional()
      .meta(atomicList)
      .describe(
        'additionalPrinterColumns specifies additional columns returned in Table output. If no columns are specified, a single column displaying the age of the custom resource is used.',
      ),
    selectableFields: z
      .array(z.object({ jsonPath: z.string() }))
      .optional()
      .meta(atomicList)
      .describe('selectableFields specifies paths to fields that may be used as field selectors.'),
  })
  .meta({ id: `${APIEXTENSIONS_V1}.CustomResourceDefinitionVersion`, description: 'CustomResourceDefinitionVersion describes a version for CRD.' });

export const CustomResourceConversionSchema = z
  .object({
    strategy: z
      .string()
      .describe(
        'strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion.',
      ),
    webhook: z
      .object({
        clientConfig: z.record(z.string(), z.unknown()).optional(),
        conversionReviewVersions: z.array(z.string()).meta(atomicList),
      })
      .optional()
      .describe('webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.'),
  })
  .meta({ id: `${APIEXTENSIONS_V1}.CustomResourceConversion` });

export const CustomResourceDefinitionSpecSchema = z
  .object({
    group: z
      .string()
      .describe(
        'group is the API group of the defined custom resource. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).',
      ),
    names: CustomResourceDefinitionNamesSchema.describe('names specify the resource and kind names for the custom resource.'),
    scope: z
      .string()
      .describe('scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.'),
    versions: z
      .array(CustomResourceDefinitionVersionSchema)
      .meta(atomicList)
      .describe(
        'versions is the list of all API versions of the defined custom resource. Version names are used to compute the order in which served versions are listed in API discovery.',
      ),
    conversion: CustomResourceConversionSchema.optional().describe('conversion defines conversion settings for the CRD.'),
    preserveUnknownFields: z
      .boolean()
      .optional()
      .describe(
        'preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.',
      ),
  })
  .meta({
    id: `${APIEXTENSIONS_V1}.CustomResourceDefinitionSpec`,
    description: 'CustomResourceDefinitionSpec describes how a user wants their resource to appear',
  });

export const CustomResourceDefinitionConditionSchema = z
  .object({
    type: z.string().describe('type is the type of the condition. Types include Established, NamesAccepted and Terminating.'),
    status: z.string().describe('status is the status of the condition. Can be True, False, Unknown.'),
    lastTransitionTime: TimeSchema.optional().describe('lastTransitionTime last time the condition transitioned from one status to another.'),
    reason: z.string().optional().describe("reason is a unique, one-word, CamelCase reason for the condition's last transition."),
    message: z.string().optional().describe('message is a human-readable message indicating details about last transition.'),
    observedGeneration: z.number().int().optional(),
  })
  .meta({ id: `${APIEXTENSIONS_V1}.CustomResourceDefinitionCondition` });

export const CustomResourceDefinitionStatusSchema = z
  .object({
    conditions: z
      .array(CustomResourceDefinitionConditionSchema)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
      .describe('conditions indicate state for particular aspects of a CustomResourceDefinition'),
    acceptedNames: CustomResourceDefinitionNamesSchema.partial()
      .optional()
      .describe('acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.'),
    storedVersions: z.array(z.string()).optional().meta(atomicList).describe('storedVersions lists all versions of CustomResources that were ever persisted.'),
    observedGeneration: z.number().int().optional(),
  })
  .meta({ id: `${APIEXTENSIONS_V1}.CustomResourceDefinitionStatus` });

export const CustomResourceDefinitionSchema = z
  .object({
    ...typeMetaFields('apiextensions.k8s.io/v1', 'CustomResourceDefinition'),
    spec: CustomResourceDefinitionSpecSchema.describe('spec describes how the user wants the resources to appear'),
    status: CustomResourceDefinitionStatusSchema.optional().describe('status indicates the actual state of the CustomResourceDefinition'),
  })
  .meta({
    id: `${APIEXTENSIONS_V1}.CustomResourceDefinition`,
    description:
      'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
  });

export type CustomResourceDefinition = z.infer<typeof CustomResourceDefinitionSchema>;
export type CustomResourceDefinitionVersion = z.infer<typeof CustomResourceDefinitionVersionSchema>;
export type CustomResourceDefinitionNames = z.infer<typeof CustomResourceDefinitionNamesSchema>;
export type CustomResourceDefinitionCondition = z.infer<typeof CustomResourceDefinitionConditionSchema>;
export type CustomResourceColumnDefinition = z.infer<typeof CustomResourceColumnDefinitionSchema>;

/** defaultCustomResourceDefinition applies v1's SetDefaults: singular from kind, listKind
 * `<kind>List`, conversion strategy None. */
export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  const names = crd.spec.names;
  if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
  if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  crd.spec.conversion ??= { strategy: 'None' };
}

/** customResourceDefinitionDefinition serves apiextensions.k8s.io/v1 CRDs. Its table is
 * Kubernetes' default (Name, Created At), as kube-apiserver 1.33 prints CRDs. */
export const customResourceDefinitionDefinition: ResourceDefinition<CustomResourceDefinition> = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  schema: CustomResourceDefinitionSchema,
  defaults: defaultCustomResourceDefinition,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [],
  storage: { resource: CRD_STORAGE_RESOURCE },
};
