/**
 * bootstrapCluster creates what every cluster has from the start: the namespaces default,
 * kube-system, kube-public and kube-node-lease, the system PriorityClasses, the default
 * `standard` StorageClass, the default ClusterRoles and ClusterRoleBindings
 * (bootstrap-rbac.ts) and kube-system / kube-public Roles and RoleBindings, and API Priority and Fairness' priority levels and flow schemas
 * (levels first, so no schema starts Dangling). The `kubernetes` Service, its endpoints and
 * the `kubernetes` ServiceCIDR are kept by the API server's own loops (controlplane/), which
 * know its address.
 * Idempotent: objects that exist (a reopened data dir) are left alone.
 */
import { isAlreadyExists } from './api/api-error.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './api/flowcontrol/index.js';
import type { KubeObject, ResourceDefinition } from './api/resource-definition.js';
import { SYSTEM_PRIORITY_CLASSES } from './api/scheduling/index.js';
import { STANDARD_STORAGE_CLASS } from './api/storage/index.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrap-rbac.js';
import { bootstrapRoleBindings, bootstrapRoles } from './bootstrap-rbac-namespaces.js';
import type { HandlerContext } from './handlers/types.js';
import { createObject } from './registry/create.js';
import { decodeObject } from './registry/object-codec.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/**
 * ExistingKeys answers "is this object stored already?" from one list per resource: bootstrap
 * checks ~180 objects on every start, and a read of a missing one throws (an error with a stack
 * trace each, most of a test server's bootstrap cost). Checked before creating: a create of an
 * existing object may fail on something other than its name first (the `kubernetes` Service's
 * cluster IP is already allocated, 422).
 */
class ExistingKeys {
  private readonly byResource = new Map<string, Set<string>>();

  constructor(private readonly ctx: HandlerContext) {}

  has(def: ResourceDefinition, namespace: string, name: string): boolean {
    const resource = def.storage.resource;
    let keys = this.byResource.get(resource);
    if (!keys) {
      keys = new Set(this.ctx.store.list({ resource }).items.map((item) => keyOf(String(item.metadata['namespace'] ?? ''), String(item.metadata['name']))));
      this.byResource.set(resource, keys);
    }
    return keys.has(keyOf(def.namespaced ? namespace : '', name));
  }
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

/** Manifest is an object body without apiVersion/kind; its name says what to look for. */
interface Manifest {
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** Bootstrap manifests decoded once per process (a test process starts many servers, each
 * bootstrapping the same ~160 objects); every server gets its own copy. */
const decodedManifests = new Map<string, KubeObject>();

function decodedManifest(def: ResourceDefinition, apiVersion: string, kind: string, namespace: string, body: Manifest): KubeObject {
  const key = `${apiVersion}/${kind}/${namespace}/${body.metadata.name}`;
  let decoded = decodedManifests.get(key);
  if (!decoded) {
    decoded = decodeObject(def, { apiVersion, kind, ...body }, { fieldValidation: 'Strict', warnings: [] });
    decodedManifests.set(key, decoded);
  }
  return structuredClone(decoded);
}

function ensureObject(ctx: HandlerContext, existing: ExistingKeys, apiVersion: string, kind: string, namespace: string, body: Manifest): void {
  const def = ctx.registry.findByKind(apiVersion, kind);
  if (!def) throw new Error(`bootstrap: ${apiVersion} ${kind} is not served`);
  if (existing.has(def, namespace, body.metadata.name)) return;
  try {
    createObject(ctx, { def, namespace }, decodedManifest(def, apiVersion, kind, namespace, body), { dryRun: false });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

export function bootstrapCluster(handlerContext: HandlerContext): void {
  const existing = new ExistingKeys(handlerContext);
  const ensure = (apiVersion: string, kind: string, namespace: string, body: Manifest) =>
    ensureObject(handlerContext, existing, apiVersion, kind, namespace, body);
  for (const name of SYSTEM_NAMESPACES) ensure('v1', 'Namespace', '', { metadata: { name } });
  for (const priorityClass of SYSTEM_PRIORITY_CLASSES) ensure('scheduling.k8s.io/v1', 'PriorityClass', '', structuredClone(priorityClass));
  ensure('storage.k8s.io/v1', 'StorageClass', '', structuredClone(STANDARD_STORAGE_CLASS));
  for (const role of bootstrapClusterRoles()) ensure('rbac.authorization.k8s.io/v1', 'ClusterRole', '', role);
  for (const binding of bootstrapClusterRoleBindings()) ensure('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', '', binding);
  for (const { namespace, body } of bootstrapRoles()) ensure('rbac.authorization.k8s.io/v1', 'Role', namespace, body);
  for (const { namespace, body } of bootstrapRoleBindings()) ensure('rbac.authorization.k8s.io/v1', 'RoleBinding', namespace, body);
  for (const level of BOOTSTRAP_PRIORITY_LEVELS) ensure('flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration', '', structuredClone(level));
  for (const schema of BOOTSTRAP_FLOW_SCHEMAS) ensure('flowcontrol.apiserver.k8s.io/v1', 'FlowSchema', '', structuredClone(schema));
}
