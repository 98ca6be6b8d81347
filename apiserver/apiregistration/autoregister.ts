/**
 * The autoregister controller of kube-apiserver, in process: a Local APIService for every
 * group-version the registry serves (built-in ones labelled
 * `kube-aggregator.kubernetes.io/automanaged: onstart`, CRD ones `true`), created, updated
 * and deleted as the registry changes (CRDs established or removed). It runs where the
 * registry lives and writes through the normal create/update/delete path. APIServices a user
 * created (no automanaged label) are left alone.
 */
import { isAlreadyExists, isNotFound } from '../api/api-error.js';
import { type APIService, apiServiceDefinition, apiServiceName } from '../api/apiregistration/index.js';
import { deepEqual } from '../api/deep-equal.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { asKube, type RegistryContext } from '../registry/context.js';
import { createObject } from '../registry/create.js';
import { deleteObject } from '../registry/delete.js';
import { updateObject } from '../registry/update.js';
import { apiServicePriority } from './priorities.js';

const AUTOMANAGED = 'kube-aggregator.kubernetes.io/automanaged';

export interface AutoregisterLogger {
  error(details: object, message: string): void;
}

type DesiredSpec = NonNullable<APIService['spec']>;

/** desiredApiServices: name → [spec, automanaged label value] for every served group-version. */
export function desiredApiServices(definitions: readonly ResourceDefinition[]): Map<string, { spec: DesiredSpec; managed: 'onstart' | 'true' }> {
  const desired = new Map<string, { spec: DesiredSpec; managed: 'onstart' | 'true' }>();
  for (const def of definitions) {
    const name = apiServiceName(def.group, def.version);
    if (desired.has(name)) continue;
    const priority = apiServicePriority(def.group ? `${def.group}/${def.version}` : def.version);
    desired.set(name, {
      spec: { group: def.group, version: def.version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
      managed: def.unstructured ? 'true' : 'onstart',
    });
  }
  return desired;
}

/** startAutoregister syncs now and after every registry change; returns what stops it. */
export function startAutoregister(ctx: RegistryContext, logger?: AutoregisterLogger): () => void {
  let pending = false;
  const sync = () => {
    pending = false;
    try {
      syncApiServices(ctx);
    } catch (err) {
      logger?.error({ err }, 'APIService autoregister failed');
    }
  };
  sync();
  // A CRD change touches the registry several times in a row: sync once after them.
  const unsubscribe = ctx.registry.onChange(() => {
    if (pending) return;
    pending = true;
    setImmediate(sync);
  });
  return () => {
    unsubscribe();
    pending = true;
  };
}

/** syncApiServices makes the stored automanaged APIServices match the registry. */
export function syncApiServices(ctx: RegistryContext): void {
  const def = (ctx.registry.find('apiregistration.k8s.io', 'v1', 'apiservices') ?? apiServiceDefinition) as ResourceDefinition;
  const desired = desiredApiServices(ctx.registry.all());
  const stored = ctx.store.list({ resource: def.storage.resource }).items.map((o) => asKube(o) as unknown as APIService);
  for (const service of stored) {
    const name = service.metadata.name ?? '';
    if (service.metadata.labels?.[AUTOMANAGED] && !desired.has(name)) remove(ctx, def, name);
  }
  for (const [name, { spec, managed }] of desired) {
    const current = stored.find((s) => s.metadata.name === name);
    if (!current) create(ctx, def, name, spec, managed);
    else if (current.metadata.labels?.[AUTOMANAGED] && !deepEqual(current.spec, spec)) update(ctx, def, name, spec);
  }
}

function create(ctx: RegistryContext, def: ResourceDefinition, name: string, spec: DesiredSpec, managed: string): void {
  const object = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, labels: { [AUTOMANAGED]: managed } }, spec } as KubeObject;
  try {
    createObject(ctx, { def, namespace: '' }, object, { dryRun: false });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

function update(ctx: RegistryContext, def: ResourceDefinition, name: string, spec: DesiredSpec): void {
  updateObject(ctx, { def, namespace: '', name }, { scope: 'main', dryRun: false, computeNext: (current) => ({ ...current, spec }) });
}

function remove(ctx: RegistryContext, def: ResourceDefinition, name: string): void {
  try {
    deleteObject(ctx, { def, namespace: '', name }, { dryRun: false });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
