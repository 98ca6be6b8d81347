/**
 * A binding's params (generic.CollectParams): the object paramRef names, or every object its
 * selector picks, of the policy's paramKind — in paramRef.namespace, else the request's
 * namespace for a namespaced kind. No params with parameterNotFoundAction Deny is an error.
 * Read from the store per evaluation (kube-apiserver reads an informer's cache).
 */
import { isNotFound } from '../../../store/index.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api/admissionregistration/admission-policy.js';
import { labelSelectorFromStructured } from '../../api/labels.js';
import type { KubeObject, ResourceDefinition } from '../../api/resource-definition.js';
import type { RegistryContext } from '../../registry/context.js';
import { asKube } from '../../registry/context.js';
import { toServed } from '../../registry/object-codec.js';

/** ConfigurationError is a policy's or binding's misconfiguration found while admitting. */
export class ConfigurationError extends Error {}

/** paramKindDefinition finds the served kind of a policy's paramKind. */
export function paramKindDefinition(ctx: RegistryContext, policy: ValidatingAdmissionPolicy): ResourceDefinition | undefined {
  const kind = policy.spec?.paramKind;
  return kind ? ctx.registry.findByKind(kind.apiVersion ?? '', kind.kind ?? '') : undefined;
}

/** paramKindText renders a paramKind as a GroupVersionKind prints (`/v1, Kind=ConfigMap`). */
export function paramKindText(policy: ValidatingAdmissionPolicy): string {
  const { apiVersion = '', kind = '' } = policy.spec?.paramKind ?? {};
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  return `${group}/${version}, Kind=${kind}`;
}

/** collectParams returns the params to evaluate with; `[null]` when the policy takes none. */
export function collectParams(
  ctx: RegistryContext,
  def: ResourceDefinition | undefined,
  binding: ValidatingAdmissionPolicyBinding,
  requestNamespace: string,
): Array<KubeObject | null> {
  const ref = binding.spec?.paramRef;
  if (!def || !ref) return [null];
  let namespace = '';
  if (def.namespaced) {
    namespace = ref.namespace || requestNamespace;
    if (!namespace) throw new ConfigurationError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (ref.namespace) {
    throw new ConfigurationError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const params = ref.name ? byName(ctx, def, namespace, ref.name) : bySelector(ctx, def, namespace, ref);
  if (params.length === 0 && ref.parameterNotFoundAction === 'Deny') {
    throw new ConfigurationError('no params found for policy binding with `Deny` parameterNotFoundAction');
  }
  return params;
}

function byName(ctx: RegistryContext, def: ResourceDefinition, namespace: string, name: string): KubeObject[] {
  try {
    return [toServed(def, asKube(ctx.store.get({ resource: def.storage.resource, namespace, name })))];
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

type ParamRef = NonNullable<NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef']>;

function bySelector(ctx: RegistryContext, def: ResourceDefinition, namespace: string, ref: ParamRef): KubeObject[] {
  const selector = labelSelectorFromStructured(ref.selector ?? {});
  const listed = ctx.store.list({ resource: def.storage.resource, ...(namespace ? { namespace } : {}) }).items.map(asKube);
  return listed.filter((o) => selector.matches(o.metadata.labels as Record<string, string> | undefined)).map((o) => toServed(def, o));
}
