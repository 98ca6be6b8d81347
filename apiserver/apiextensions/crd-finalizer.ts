/**
 * The CRD finalizer (apiextensions-apiserver's CRDFinalizer): a CRD marked for deletion keeps
 * the customresourcecleanup finalizer until every custom resource of it is gone. It reports
 * progress in the Terminating condition, deletes the objects through the normal delete path
 * (their own finalizers are honoured, so it may have to wait), then drops the finalizer,
 * which removes the CRD.
 */

import { isNotFound } from '../api/api-error.js';
import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, type CustomResourceDefinition } from '../api/apiextensions/index.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import type { RegistryContext } from '../registry/context.js';
import { deleteObject } from '../registry/delete.js';
import { type CrdCondition, isConditionTrue, setCondition } from './crd-conditions.js';
import { customResourceStorage } from './crd-definitions.js';
import { updateCrd } from './crd-writes.js';

/** 'done': nothing left to do for this CRD; 'waiting': instances remain, try again later. */
export type FinalizeOutcome = 'done' | 'waiting';

/** finalizeCrd runs one pass of the finalizer over a CRD marked for deletion. `def` is a
 * definition of the CRD's objects to delete them through. */
export function finalizeCrd(ctx: RegistryContext, crd: CustomResourceDefinition, def: ResourceDefinition | undefined): FinalizeOutcome {
  const name = crd.metadata.name ?? '';
  if (!crd.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) return 'done';
  const now = () => rfc3339(ctx.now());
  const inProgress: CrdCondition = {
    type: 'Terminating',
    status: 'True',
    reason: 'InstanceDeletionInProgress',
    message: 'CustomResource deletion is in progress',
  };
  if (!updateCrd(ctx, name, 'status', (c) => setCondition(c, inProgress, now()))) return 'done';
  let outcome: CrdCondition;
  if (isConditionTrue(crd, 'Established') && def) {
    const deletion = deleteInstances(ctx, crd, def);
    if (deletion.status === 'True') {
      updateCrd(ctx, name, 'status', (c) => setCondition(c, deletion, now()));
      return 'waiting';
    }
    outcome = deletion;
  } else {
    outcome = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
  }
  updateCrd(ctx, name, 'server', (c) => {
    setCondition(c, outcome, now());
    c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER);
  });
  return 'done';
}

/** deleteInstances deletes every custom resource of the CRD and reports the Terminating
 * condition: False once none remain, True while some wait for their own finalizers. */
function deleteInstances(ctx: RegistryContext, crd: CustomResourceDefinition, def: ResourceDefinition): CrdCondition {
  const resource = customResourceStorage(crd);
  const failures: string[] = [];
  for (const item of ctx.store.list({ resource }).items as unknown as KubeObject[]) {
    if (item.metadata.deletionTimestamp) continue;
    const target = { def, namespace: item.metadata.namespace ?? '', name: item.metadata.name ?? '' };
    try {
      deleteObject(ctx, target, { dryRun: false });
    } catch (err) {
      if (!isNotFound(err)) failures.push((err as Error).message);
    }
  }
  if (failures.length > 0) {
    return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: `could not issue all deletes: ${failures.join(', ')}` };
  }
  const remaining = ctx.store.list({ resource, limit: 1 }).items.length;
  if (remaining > 0) {
    return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
  }
  return { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
}
