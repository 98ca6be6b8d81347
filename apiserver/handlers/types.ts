/** The request and response shapes shared by the resource handlers. */
import type { ResourceDefinition } from '../api/resource-definition.js';
import type { RegistryContext, Target } from '../registry/context.js';
import type { Query } from '../request/query.js';
import type { ResourcePath } from '../routes/resource-path.js';

/** ApiRequest is one request against a resolved resource path. */
export interface ApiRequest {
  method: string;
  path: ResourcePath;
  query: Query;
  accept: string | undefined;
  contentType: string | undefined;
  body: Buffer | undefined;
}

/** ApiResponse is a JSON reply; `warnings` become `Warning: 299` headers. */
export interface ApiResponse {
  status: number;
  body: unknown;
  warnings?: string[];
  contentType?: string;
}

export type HandlerContext = RegistryContext;

/** targetOf names the object a request addresses; throws if the path has no name. */
export function targetOf(path: ResourcePath): Target {
  if (path.name === undefined) throw new Error('targetOf needs a path with a name');
  return { def: path.def, namespace: path.namespace, name: path.name };
}

/** listKind is the kind of a collection of `def` objects. */
export function listKind(def: ResourceDefinition): string {
  return `${def.kind}List`;
}
