/**
 * What the object lifecycle (create/update/delete) needs from the server: the store, the
 * live registry and the clock. Passed explicitly so tests and the embeddable cluster can
 * run several servers in one process.
 */
import type { ObjectRef, Store, StoredActor, StoredObject } from '../../store/index.js';
import { notFound, pathNotFound, type ResourceName } from '../api/api-error.js';
import type { Random } from '../api/machinery/random.js';
import type { Registry } from '../api/registry.js';
import type { KindStrategy, KubeObject, ResourceDefinition, StrategyContext } from '../api/resource-definition.js';
import type { AuditRecorder } from '../audit/recorder.js';
import type { ServerAuthorization } from '../authz/register.js';
import type { UserInfo } from '../authz/user.js';

export interface RegistryContext {
  store: Store;
  registry: Registry;
  /** Milliseconds since the epoch; the cluster clock. */
  now: () => number;
  /** Who is writing and why (docs/history.md), recorded with every change made through this
   * context — set per request, as kube-apiserver's request context carries the user. */
  actor?: StoredActor;
  /** Who makes the request (authenticated, impersonation applied) — set per request, like
   * actor; absent for the server's own writes (bootstrap, in-process loops). */
  user?: UserInfo;
  /** The request's audit event, when the audit policy logs the request (apiserver/audit). */
  audit?: AuditRecorder;
  /** The server's random choices, one stream per purpose (see registryRandom). */
  random: RegistryRandom;
  /** The server's authorizer (access reviews) and, in RBAC mode, the RBAC objects (escalation
   * checks, rules reviews); absent for a context built without a server. */
  authorization?: ServerAuthorization;
}

/** RegistryRandom holds one stream per kind of choice, so a seeded server's uids do not
 * shift when, say, one more Service draws a node port. */
export interface RegistryRandom {
  uid: Random;
  generateName: Random;
  clusterIp: Random;
  nodePort: Random;
  /** The suffix of a pod's kube-api-access-<suffix> volume (ServiceAccount admission). */
  serviceAccountVolume: Random;
}

/** registryRandom forks the server's streams from `random` (seeded or not). */
export function registryRandom(random: Random): RegistryRandom {
  return {
    uid: random.fork('uid'),
    generateName: random.fork('generate-name'),
    clusterIp: random.fork('cluster-ip'),
    nodePort: random.fork('node-port'),
    serviceAccountVolume: random.fork('service-account-volume'),
  };
}

/** Target names one object of a served kind; namespace is '' for cluster-scoped kinds. */
export interface Target {
  def: ResourceDefinition;
  namespace: string;
  name: string;
}

export function objectRef(target: Target): ObjectRef {
  return { resource: target.def.storage.resource, namespace: target.def.namespaced ? target.namespace : '', name: target.name };
}

export function resourceName(target: Target): ResourceName {
  return { group: target.def.group, resource: target.def.plural, kind: target.def.kind, name: target.name };
}

/** storageDefinitionOf returns the served version whose shape is stored for `def`. */
export function storageDefinitionOf(ctx: RegistryContext, def: ResourceDefinition): ResourceDefinition {
  if (!def.storage.toStorage) return def;
  const storageDef = ctx.registry.storageDefinition(def.storage.resource);
  if (!storageDef) throw pathNotFound();
  return storageDef;
}

/** asKube views a stored object as a KubeObject (the store only knows metadata.resourceVersion). */
export function asKube(stored: StoredObject): KubeObject {
  return stored as unknown as KubeObject;
}

/** readStored fetches the stored object or throws a Kubernetes-worded 404. */
export function readStored(ctx: RegistryContext, target: Target): KubeObject {
  try {
    return asKube(ctx.store.get(objectRef(target)));
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFound') throw notFound(resourceName(target));
    throw err;
  }
}

const GENERIC: KindStrategy = {};

/** strategyOf returns the kind's strategy (the generic flow when it has none). All served
 * versions of a kind share the strategy of the version whose shape is stored. */
export function strategyOf(ctx: RegistryContext, def: ResourceDefinition): KindStrategy {
  return (ctx.registry.storageDefinition(def.storage.resource) ?? def).strategy ?? GENERIC;
}

/** strategyContext is the view of the server a strategy hook receives. */
export function strategyContext(ctx: RegistryContext): StrategyContext {
  return {
    listStored: (resource) => ctx.store.list({ resource }).items.map(asKube),
    randomInt: (purpose, n) => ctx.random[purpose].int(n),
    now: ctx.now,
  };
}
