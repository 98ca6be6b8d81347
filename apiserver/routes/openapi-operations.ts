/**
 * The REST operations of a served kind, in a form neither OpenAPI version owns: which paths it
 * has, which HTTP methods each serves (only the kind's verbs), their operation ids, actions
 * and query parameters. /openapi/v3 (openapi.ts) and /openapi/v2 (openapi-v2.ts) both render
 * this one walk, so the two documents always describe the same API.
 */
import { ALL_VERBS, type ResourceDefinition } from '../api/resource-definition.js';
import { schemaDocumentFor } from '../api/schema-node.js';

/** The `info.version` of both documents: the Kubernetes version kubesim answers as. */
export const OPENAPI_INFO_VERSION = 'v1.33.0';

const REF_PREFIX = '#/definitions/';

/** KindOperation is one HTTP method on one path. */
/** The model every PATCH operation names as its body. */
export const PATCH_ID = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
export const PATCH_MODEL = { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' } as const;

/** patchContentTypes are the patch types a kind's PATCH accepts, as kube-apiserver lists them
 * in both OpenAPI documents: kubectl's client-side apply sends a strategic merge patch only
 * when the kind's PATCH lists that type, and custom resources take none. */
export function patchContentTypes(def: ResourceDefinition): string[] {
  const types = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
  return def.unstructured ? types : [...types.slice(0, 2), 'application/strategic-merge-patch+json', types[2]!];
}

export interface KindOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The `x-kubernetes-action`: get, list, post, put, patch, delete. */
  action: string;
  operationId: string;
  query: readonly string[];
  /** Whether the request carries the object (create, replace) or a patch. */
  body?: 'object' | 'patch';
}

/** KindPath is a collection or object path with its path parameters and operations. */
export interface KindPath {
  path: string;
  pathParams: readonly string[];
  operations: KindOperation[];
}

const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation'];
const LIST_PARAMS = ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'watch'];

/** kindSchemaId is the definition id of the kind's schema (`io.k8s.api.apps.v1.Deployment`). */
export function kindSchemaId(def: ResourceDefinition): string {
  const root = schemaDocumentFor(def).root;
  return root.$ref?.slice(REF_PREFIX.length) ?? `${def.group || 'core'}.${def.version}.${def.kind}`;
}

function basePath(def: ResourceDefinition): string {
  return def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** groupVersionPrefix spells a group-version as Kubernetes' operation ids do: `CoreV1`,
 * `AppsV1`, `RbacAuthorizationV1` (`.k8s.io` dropped), `StableExampleComV1`. */
function groupVersionPrefix(def: ResourceDefinition): string {
  const group = def.group ? def.group.replace(/\.k8s\.io$/, '') : 'core';
  return group.split(/[.-]/).map(pascal).join('') + pascal(def.version);
}

/** kindPaths lists the kind's collection and object paths with one operation per served verb
 * (a read-only kind such as PodMetrics publishes only its GETs). */
export function kindPaths(def: ResourceDefinition): KindPath[] {
  const collection = `${basePath(def)}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.plural}`;
  const pathParams = def.namespaced ? ['namespace'] : [];
  const served: readonly string[] = def.verbs ?? ALL_VERBS;
  const id = (verb: string) => `${verb}${groupVersionPrefix(def)}${def.namespaced ? 'Namespaced' : ''}${def.kind}`;
  // verb: the discovery verb that must be served; idVerb: its word in the operation id.
  const op = (verb: string, idVerb: string, operation: Omit<KindOperation, 'operationId'>): KindOperation[] =>
    served.includes(verb) ? [{ ...operation, operationId: id(idVerb) }] : [];
  return [
    {
      path: collection,
      pathParams,
      operations: [
        ...op('list', 'list', { method: 'get', action: 'list', query: LIST_PARAMS }),
        ...op('create', 'create', { method: 'post', action: 'post', query: WRITE_PARAMS, body: 'object' }),
      ],
    },
    {
      path: `${collection}/{name}`,
      pathParams: [...pathParams, 'name'],
      operations: [
        ...op('get', 'read', { method: 'get', action: 'get', query: [] }),
        ...op('update', 'replace', { method: 'put', action: 'put', query: WRITE_PARAMS, body: 'object' }),
        ...op('patch', 'patch', { method: 'patch', action: 'patch', query: [...WRITE_PARAMS, 'force'], body: 'patch' }),
        ...op('delete', 'delete', { method: 'delete', action: 'delete', query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy'] }),
      ],
    },
  ];
}
