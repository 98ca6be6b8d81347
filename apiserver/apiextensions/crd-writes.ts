/**
 * How the in-process CRD controllers read and write CustomResourceDefinitions: through the
 * registry's normal update path (strategy, validation, managedFields as `kube-apiserver`),
 * the way apiextensions-apiserver's controllers use its own client.
 */
import { isNotFound } from '../../store/index.js';
import { CRD_STORAGE_RESOURCE, type CustomResourceDefinition, customResourceDefinitionDefinition } from '../api/apiextensions/index.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { createUpdateTracker } from '../fieldmanager/index.js';
import { asKube, type RegistryContext } from '../registry/context.js';
import { type UpdateScope, updateObject } from '../registry/update.js';

/** CONTROLLER_MANAGER is the field manager of the controllers' writes, as in kube-apiserver. */
const CONTROLLER_MANAGER = 'kube-apiserver';

function crdDefinition(ctx: RegistryContext): ResourceDefinition {
  const { group, version, plural } = customResourceDefinitionDefinition;
  return ctx.registry.find(group, version, plural) ?? (customResourceDefinitionDefinition as unknown as ResourceDefinition);
}

/** readCrd returns the stored CRD, or undefined when there is none. */
export function readCrd(ctx: RegistryContext, name: string): CustomResourceDefinition | undefined {
  try {
    return asKube(ctx.store.get({ resource: CRD_STORAGE_RESOURCE, namespace: '', name })) as unknown as CustomResourceDefinition;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** listCrds returns every stored CRD and the revision the list reflects. */
export function listCrds(ctx: RegistryContext): { crds: CustomResourceDefinition[]; revision: number } {
  const result = ctx.store.list({ resource: CRD_STORAGE_RESOURCE });
  return { crds: result.items as unknown as CustomResourceDefinition[], revision: result.revision };
}

/** updateCrd applies `mutate` to the current CRD and writes it with `scope` ('status', or
 * 'server' to change metadata.finalizers too). Returns the CRD as stored (unchanged when the
 * mutation was a no-op), or undefined when it is gone (removed by this very write, too). */
export function updateCrd(
  ctx: RegistryContext,
  name: string,
  scope: Extract<UpdateScope, 'status' | 'server'>,
  mutate: (crd: CustomResourceDefinition) => void,
): CustomResourceDefinition | undefined {
  const def = crdDefinition(ctx);
  const updated = updateObject(
    ctx,
    { def, namespace: '', name },
    {
      scope,
      dryRun: false,
      fieldTracker: createUpdateTracker({ def, manager: CONTROLLER_MANAGER, subresource: 'status', now: ctx.now }),
      computeNext: (current) => {
        mutate(current as unknown as CustomResourceDefinition);
        return current;
      },
    },
  );
  return readCrd(ctx, name) === undefined ? undefined : (updated as unknown as CustomResourceDefinition);
}
