/**
 * createObject: kube-apiserver's create flow for any kind — namespace and name, defaults,
 * mutating admission, server-owned metadata, kind hooks, validation, validating admission,
 * then one atomic store write.
 */
import { isAlreadyExists } from '../../store/index.js';
import { type Admission, admitThen, type MaybePromise, startAdmission, validateThenWrite } from '../admission/chain.js';
import { alreadyExists, badRequest, invalid } from '../api/api-error.js';
import type { KubeObject } from '../api/resource-definition.js';
import { checkRbacWrite } from '../authz/escalation.js';
import { asKube, objectRef, type RegistryContext, resourceName, storageDefinitionOf, strategyContext, strategyOf, type Target } from './context.js';
import { generateNameSuffix, prepareForCreate, validateMetadata } from './metadata.js';
import { toStored } from './object-codec.js';
import { servedForm } from './update.js';
import type { WriteOptions } from './write-options.js';

const GENERATE_NAME_ATTEMPTS = 5;

/** createObject stores a decoded object of `target.def` in `target.namespace` and returns it
 * in the served version. Throws ApiError 400/403/404/409/422. `object` is consumed (mutated).
 * Synchronous without `admission` (the server's own writers); with it, a Promise only when
 * an admission plugin answered asynchronously. */
export function createObject(
  ctx: RegistryContext,
  target: Omit<Target, 'name'>,
  object: KubeObject,
  options: WriteOptions & { admission?: undefined },
): KubeObject;
export function createObject(ctx: RegistryContext, target: Omit<Target, 'name'>, object: KubeObject, options: WriteOptions): MaybePromise<KubeObject>;
export function createObject(ctx: RegistryContext, target: Omit<Target, 'name'>, object: KubeObject, options: WriteOptions): MaybePromise<KubeObject> {
  const { def } = target;
  placeInNamespace(target, object);
  const usesGenerateName = !object.metadata.name && !!object.metadata.generateName;
  prepareForCreate(def, object, ctx.now(), ctx.random.uid);
  def.defaults?.(object);
  checkRbacWrite({ authorization: ctx.authorization, user: ctx.user, def, namespace: target.namespace, object });
  // Ownership is recorded before the strategy fills in server-chosen values (a Service's
  // clusterIP), which no manager owns — as kube-apiserver runs its field manager first.
  options.fieldTracker?.track(undefined, object);
  const admission = startAdmission(ctx, options, {
    operation: 'CREATE',
    def,
    subresource: '',
    namespace: def.namespaced ? target.namespace : '',
    // A generated name is drawn after mutating admission, as in kube-apiserver.
    name: object.metadata.name ?? '',
    object,
    dryRun: options.dryRun,
  });
  return admitThen(ctx, admission, () => store(ctx, target, admission?.attributes.object ?? object, options, usesGenerateName, admission, 1));
}

function store(
  ctx: RegistryContext,
  target: Omit<Target, 'name'>,
  object: KubeObject,
  options: WriteOptions,
  usesGenerateName: boolean,
  admission: Admission | undefined,
  attempt: number,
): MaybePromise<KubeObject> {
  const { def } = target;
  if (usesGenerateName) object.metadata.name = `${object.metadata.generateName}${generateNameSuffix(ctx.random.generateName)}`;
  const name = object.metadata.name ?? '';
  const fullTarget: Target = { ...target, name };
  strategyOf(ctx, def).beforeCreate?.(object, { ...strategyContext(ctx), warn: (message) => options.warnings?.push(message) });
  const errors = [...validateMetadata(def, object), ...(def.validate?.(object) ?? [])];
  if (errors.length > 0) throw invalid(resourceName(fullTarget), errors);
  if (admission) admission.attributes.name = name;
  const { conversion } = options;
  if (conversion) {
    // Converted before the validating phase: the write stays in the same synchronous block as its last plugin.
    return conversion.toStored(object).then((stored) => validateThenWrite(ctx, admission, () => write(stored)));
  }
  return validateThenWrite(ctx, admission, () => write(toStored(def, object, storageDefinitionOf(ctx, def))));

  function write(stored: KubeObject): MaybePromise<KubeObject> {
    if (options.dryRun) return servedForm(def, stored, conversion);
    try {
      return servedForm(def, asKube(ctx.store.create(objectRef(fullTarget), stored, { actor: ctx.actor })), conversion);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // A generated name may collide; Kubernetes leaves the retry to the client, we retry a few times.
      if (!usesGenerateName || attempt >= GENERATE_NAME_ATTEMPTS) throw alreadyExists(resourceName(fullTarget));
      return store(ctx, target, object, options, usesGenerateName, admission, attempt + 1);
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
