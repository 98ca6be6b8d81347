/**
 * GET of kinds whose objects are computed, not stored (`source: 'virtual'`, the
 * metrics.k8s.io kinds): the objects come from the VirtualSource registered for the kind,
 * and the generic list semantics that make sense without a store apply — label and field
 * selectors, all-namespaces lists, Tables. There is no revision history, so lists carry no
 * resourceVersion and ignore limit/continue (metrics-server answers the same way).
 */
import { notFound } from '../api/api-error.js';
import { apiVersionOf, type KubeObject, type ResourceDefinition } from '../api/resource-definition.js';
import { wantsTable } from '../request/accept.js';
import { parseSelection } from './list-options.js';
import { buildTable, includeObjectOf } from './table.js';
import { type ApiRequest, type ApiResponse, type HandlerContext, listKind, targetOf, type VirtualSource } from './types.js';

/** isVirtual reports whether `def`'s objects come from a VirtualSource. */
export function isVirtual(def: ResourceDefinition): boolean {
  return def.source === 'virtual';
}

/** sourceOf finds the kind's source. A virtual kind nobody provides is simply empty: a
 * server built without the metrics pipeline still answers (with nothing), as Kubernetes
 * does when metrics-server has not scraped anything yet. */
function sourceOf(ctx: HandlerContext, def: ResourceDefinition): VirtualSource {
  return ctx.virtual?.get(def.storage.resource) ?? { list: () => [], get: () => undefined };
}

/** getVirtual answers GET of one computed object; 404 worded as for stored ones. */
export function getVirtual(ctx: HandlerContext, request: ApiRequest): ApiResponse {
  const target = targetOf(request.path);
  const object = sourceOf(ctx, target.def).get(target.namespace, target.name);
  if (!object) throw notFound({ group: target.def.group, resource: target.def.plural, name: target.name });
  if (!wantsTable(request.accept)) return { status: 200, body: object };
  return { status: 200, body: buildTable(target.def, [{ served: object, printed: object }], tableOptions(ctx, request)) };
}

/** listVirtual answers GET of a collection of computed objects, sorted by namespace and name. */
export function listVirtual(ctx: HandlerContext, request: ApiRequest): ApiResponse {
  const { def, namespace } = request.path;
  const selection = parseSelection(def, request.query);
  const items = sourceOf(ctx, def)
    .list(def.namespaced ? namespace : '')
    .filter((object) => selection.matches(object))
    .sort(byNamespaceAndName);
  if (wantsTable(request.accept)) {
    return {
      status: 200,
      body: buildTable(
        def,
        items.map((object) => ({ served: object, printed: object })),
        tableOptions(ctx, request),
      ),
    };
  }
  return { status: 200, body: { kind: listKind(def), apiVersion: apiVersionOf(def), metadata: {}, items } };
}

function tableOptions(ctx: HandlerContext, request: ApiRequest) {
  return { includeObject: includeObjectOf(request.query), nowMs: ctx.now() };
}

function byNamespaceAndName(a: KubeObject, b: KubeObject): number {
  const key = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
