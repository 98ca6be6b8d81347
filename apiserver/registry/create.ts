/**
 * createObject: kube-apiserver's create flow for any kind — namespace and name, admission,
 * server-owned metadata, defaults, kind hooks, validation, then one atomic store write.
 */
import { isAlreadyExists } from '../../store/index.js';
import { runPolicyAdmission } from '../admission/policy/interim-wiring.js';
import { alreadyExists, badRequest, invalid } from '../api/api-error.js';
import type { KubeObject } from '../api/resource-definition.js';
import { admitCreate } from './admission.js';
import { asKube, objectRef, type RegistryContext, resourceName, storageDefinitionOf, strategyContext, strategyOf, type Target } from './context.js';
import { generateNameSuffix, prepareForCreate, validateMetadata } from './metadata.js';
import { toServed, toStored } from './object-codec.js';
import { admitQuota } from './quota-admission.js';
import type { WriteOptions } from './write-options.js';

const GENERATE_NAME_ATTEMPTS = 5;

/** createObject stores a decoded object of `target.def` in `target.namespace` and returns it
 * in the served version. Throws ApiError 400/403/404/409/422. `object` is consumed (mutated). */
export function createObject(ctx: RegistryContext, target: Omit<Target, 'name'>, object: KubeObject, options: WriteOptions): KubeObject {
  const { def } = target;
  placeInNamespace(target, object);
  const usesGenerateName = !object.metadata.name && !!object.metadata.generateName;
  prepareForCreate(def, object, ctx.now(), ctx.random.uid);
  def.defaults?.(object);
  // Ownership is recorded before the strategy fills in server-chosen values (a Service's
  // clusterIP), which no manager owns — as kube-apiserver runs its field manager first.
  options.fieldTracker?.track(undefined, object);
  const storageDef = storageDefinitionOf(ctx, def);
  for (let attempt = 1; ; attempt++) {
    if (usesGenerateName) object.metadata.name = `${object.metadata.generateName}${generateNameSuffix(ctx.random.generateName)}`;
    const name = object.metadata.name ?? '';
    const fullTarget: Target = { ...target, name };
    admitCreate(ctx, def, target.namespace, name);
    strategyOf(ctx, def).beforeCreate?.(object, strategyContext(ctx));
    const errors = [...validateMetadata(def, object), ...(def.validate?.(object) ?? [])];
    if (errors.length > 0) throw invalid(resourceName(fullTarget), errors);
    // interim VAP wiring (replaced by the admission chain)
    const admissionName = usesGenerateName ? '' : name; // admission sees no drawn name, as in kube-apiserver
    runPolicyAdmission(
      ctx,
      { operation: 'CREATE', def, subresource: '', namespace: target.namespace, name: admissionName, object, dryRun: options.dryRun },
      options.warnings,
    );
    admitQuota(ctx, def, object, options.dryRun === true);
    const stored = toStored(def, object, storageDef);
    if (options.dryRun) return toServed(def, stored);
    try {
      return toServed(def, asKube(ctx.store.create(objectRef(fullTarget), stored, { actor: ctx.actor })));
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // A generated name may collide; Kubernetes leaves the retry to the client, we retry a few times.
      if (!usesGenerateName || attempt >= GENERATE_NAME_ATTEMPTS) throw alreadyExists(resourceName(fullTarget));
    }
  }
}

function placeInNamespace(target: Omit<Target, 'name'>, object: KubeObject): void {
  if (!target.def.namespaced) {
    delete object.metadata.namespace;
    return;
  }
  const bodyNamespace = object.metadata.namespace;
  if (bodyNamespace && bodyNamespace !== target.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  object.metadata.namespace = target.namespace;
}
