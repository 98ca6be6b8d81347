/**
 * Whole-cluster snapshots, under kubesim's own API (/apis/kubesim.io/v1alpha1):
 *   GET  /snapshot          every stored object, as a ClusterSnapshot
 *   POST /snapshot/restore  make the cluster's objects equal to a ClusterSnapshot
 *
 * A restore is ordinary writes in one store transaction (see Store.restoreObjects), so every
 * watcher — informers, kubectl get -w — sees normal ADDED/MODIFIED/DELETED events and the
 * revision only moves forward. The body is checked in full first: a bad snapshot gets a
 * Status naming the problem (400 for JSON or shape, 422 for keys the cluster cannot take)
 * and nothing is written.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { type SnapshotEntry, StoreSnapshotFormatVersion } from '../../store/index.js';
import { ApiError, describeFieldError } from '../api/api-error.js';
import { CRD_STORAGE_RESOURCE, type CustomResourceDefinition } from '../api/apiextensions/index.js';
import type { Registry } from '../api/registry.js';
import type { FieldError } from '../api/resource-definition.js';
import { customResourceStorage } from '../apiextensions/crd-definitions.js';
import type { RegistryContext } from '../registry/context.js';
import type { Query } from '../request/query.js';
import { actorOf } from './actor.js';
import { KUBESIM_API, parseBody } from './cluster-routes.js';

const API_VERSION = 'kubesim.io/v1alpha1';
const KIND = 'ClusterSnapshot';
/** A snapshot holds every object of the cluster, far beyond the 3 MiB of an object write:
 * 128 MiB holds a cluster of 10,000 pods several times over, and bounds what one request can
 * make the server hold in memory (the body, then its parsed form). */
export const RESTORE_BODY_LIMIT_BYTES = 128 * 1024 * 1024;
/** Causes listed in a 422; a broken file can have thousands of problems. */
const MAX_CAUSES = 20;

const EntrySchema = z.object({
  resource: z.string().min(1),
  namespace: z.string(),
  name: z.string().min(1),
  object: z.looseObject({
    metadata: z.looseObject({
      name: z.string().optional(),
      namespace: z.string().optional(),
      resourceVersion: z.string().optional(),
    }),
  }),
});

/** ClusterSnapshotSchema is the wire form: a StoreSnapshot with apiVersion and kind. */
export const ClusterSnapshotSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  kind: z.literal(KIND),
  formatVersion: z.literal(StoreSnapshotFormatVersion),
  revision: z.number().int().nonnegative(),
  objects: z.array(EntrySchema),
});

/** ClusterSnapshot is what GET /snapshot answers and POST /snapshot/restore takes. */
export type ClusterSnapshot = z.infer<typeof ClusterSnapshotSchema>;

export function registerSnapshotRoutes(app: FastifyInstance, ctx: RegistryContext): void {
  app.get(`${KUBESIM_API}/snapshot`, async (_request, reply) => {
    const snapshot = ctx.store.exportObjects();
    return send(reply, { apiVersion: API_VERSION, kind: KIND, ...snapshot });
  });
  app.post(`${KUBESIM_API}/snapshot/restore`, { bodyLimit: RESTORE_BODY_LIMIT_BYTES }, async (request, reply) => {
    const snapshot = parseBody(ClusterSnapshotSchema, request);
    const errors = checkEntries(ctx.registry, snapshot.objects);
    if (errors.length > 0) throw invalidSnapshot(errors);
    const { formatVersion, revision, objects } = snapshot;
    const actor = actorOf(request.headers, request.query as Query, request.user?.username);
    const result = ctx.store.restoreObjects({ formatVersion, revision, objects }, { actor });
    return send(reply, { apiVersion: API_VERSION, kind: 'SnapshotRestoreResult', ...result });
  });
}

/** StoredKind is what the checks need to know of a resource: the kind it holds and its scope. */
interface StoredKind {
  kind: string;
  namespaced: boolean;
}

/** restorableResources are the resources a snapshot may hold: the built-in stored kinds, and
 * the custom resources of the CRDs in the snapshot itself (once restored, the CRD controller
 * serves them). A custom resource whose CRD the snapshot lacks would be left unserved. */
function restorableResources(registry: Registry, objects: readonly SnapshotEntry[]): Map<string, StoredKind> {
  const known = new Map<string, StoredKind>();
  for (const def of registry.all()) {
    if (def.source === 'virtual' || def.unstructured || def.storage.toStorage) continue;
    known.set(def.storage.resource, { kind: def.kind, namespaced: def.namespaced });
  }
  for (const entry of objects) {
    if (entry.resource !== CRD_STORAGE_RESOURCE) continue;
    const spec = entry.object['spec'] as { group?: unknown; scope?: unknown; names?: { plural?: unknown; kind?: unknown } } | undefined;
    const { group, scope, names } = spec ?? {};
    if (typeof group !== 'string' || typeof names?.plural !== 'string' || typeof names.kind !== 'string') continue;
    const resource = customResourceStorage(entry.object as unknown as CustomResourceDefinition);
    known.set(resource, { kind: names.kind, namespaced: scope === 'Namespaced' });
  }
  return known;
}

/** checkEntries finds what the store would take but the cluster could not serve: unknown or
 * virtual resources, namespaces that do not fit the kind's scope, bodies whose name or
 * namespace disagree with their key, and repeated keys. */
export function checkEntries(registry: Registry, objects: readonly SnapshotEntry[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const restorable = restorableResources(registry, objects);
  objects.forEach((entry, i) => {
    const at = `objects[${i}]`;
    const key = `${entry.resource}\u0000${entry.namespace}\u0000${entry.name}`;
    if (seen.has(key)) errors.push({ type: 'FieldValueDuplicate', field: at, value: `${entry.resource} ${entry.namespace}/${entry.name}` });
    seen.add(key);
    const def = restorable.get(entry.resource);
    if (def === undefined) {
      errors.push({
        type: 'FieldValueNotSupported',
        field: `${at}.resource`,
        value: entry.resource,
        detail: 'not a stored resource of this cluster, nor defined by a CustomResourceDefinition in the snapshot',
      });
      return;
    }
    const metadata = entry.object.metadata;
    if (def.namespaced && entry.namespace === '')
      errors.push({ type: 'FieldValueRequired', field: `${at}.namespace`, detail: `${entry.resource} are namespaced` });
    if (!def.namespaced && entry.namespace !== '')
      errors.push({
        type: 'FieldValueInvalid',
        field: `${at}.namespace`,
        value: entry.namespace,
        detail: `must be empty: ${entry.resource} are cluster-scoped`,
      });
    if (metadata['name'] !== entry.name)
      errors.push({
        type: 'FieldValueInvalid',
        field: `${at}.object.metadata.name`,
        value: metadata['name'],
        detail: `must equal the key's name ${JSON.stringify(entry.name)}`,
      });
    if ((metadata['namespace'] ?? '') !== entry.namespace) {
      errors.push({
        type: 'FieldValueInvalid',
        field: `${at}.object.metadata.namespace`,
        value: metadata['namespace'],
        detail: `must equal the key's namespace ${JSON.stringify(entry.namespace)}`,
      });
    }
    const kind = entry.object['kind'];
    if (kind !== undefined && kind !== def.kind)
      errors.push({ type: 'FieldValueInvalid', field: `${at}.object.kind`, value: kind, detail: `${entry.resource} hold ${def.kind} objects` });
  });
  return errors;
}

function invalidSnapshot(errors: FieldError[]): ApiError {
  const causes = errors.slice(0, MAX_CAUSES).map((e) => ({ reason: e.type, message: describeFieldError(e), field: e.field }));
  const more = errors.length > MAX_CAUSES ? ` and ${errors.length - MAX_CAUSES} more` : '';
  const listed = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  return new ApiError('Invalid', 422, `${KIND}.kubesim.io is invalid, nothing was restored: [${listed}]${more}`, {
    group: 'kubesim.io',
    kind: KIND,
    causes,
  });
}

function send(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.code(200).type('application/json').send(JSON.stringify(body));
}
