/**
 * ValidatingAdmissionPolicy, the admission plugin (k8s.io/apiserver's validating policy
 * dispatcher): for every bound policy whose matchConstraints select the request, every binding
 * whose matchResources select it, and every param the binding names, the policy's validations
 * run; failures are enforced by the binding's validationActions — Deny rejects with the first
 * denial (`ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...`), Warn adds a
 * `Warning` header, Audit an audit annotation. Misconfigurations (unknown paramKind, missing
 * params with Deny) deny unless the policy's failurePolicy is Ignore. Synchronous: params and
 * namespaces are read from the store, everything else from the in-memory policy cache.
 */

import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api/admissionregistration/admission-policy.js';
import { ApiError, type StatusReason } from '../../api/api-error.js';
import type { KubeObject } from '../../api/resource-definition.js';
import type { CelValue } from '../../apiextensions/cel/values.js';
import { type Authorizer, alwaysAllow } from '../../authz/authorizer.js';
import type { RegistryContext } from '../../registry/context.js';
import { asKube } from '../../registry/context.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from '../plugin.js';
import { AuthorizerValue, REQUEST_RESOURCE, ResourceCheckValue } from './authorizer-library.js';
import { type Decision, validate } from './evaluate.js';
import { jsonToCel } from './json-map.js';
import { type MatchContext, matchResources } from './matching.js';
import { ConfigurationError, collectParams, paramKindDefinition, paramKindText } from './params.js';
import { type PolicyHook, policyHooks } from './policy-cache.js';
import { admissionRequest, inVersion, namespaceObject } from './request.js';

export const PLUGIN_NAME = 'ValidatingAdmissionPolicy';

const VALIDATION_FAILURE_ANNOTATION = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_AUDIT_ANNOTATION_VALUE = 10 * 1024;

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

export interface PolicyPluginOptions {
  /** What `authorizer` checks ask: the server's authorizer (RBAC when it runs RBAC). */
  authorizer: Authorizer;
}

/** createValidatingAdmissionPolicy builds the plugin; it keeps its state per store (see
 * policy-cache), so one instance serves any number of servers. */
export function createValidatingAdmissionPolicy(options: PolicyPluginOptions): AdmissionPlugin {
  return {
    name: PLUGIN_NAME,
    validate(ctx, attributes, result) {
      const hooks = policyHooks(ctx.store);
      if (hooks.length === 0 || isPolicyResource(attributes)) return;
      const denials: Denial[] = [];
      const request = new RequestScope(ctx, attributes, options.authorizer);
      for (const hook of hooks) dispatch(ctx, hook, request, result, denials);
      if (denials.length > 0) throw denied(attributes, denials[0]!);
    },
  };
}

/** The plugin for servers in AlwaysAllow mode (every `authorizer` check is allowed). */
export const validatingAdmissionPolicy = createValidatingAdmissionPolicy({ authorizer: alwaysAllow });

const POLICY_RESOURCES = new Set([
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/** Policies never apply to policies and bindings themselves (kube-apiserver's isPolicyResource),
 * so a policy cannot lock itself in place. */
function isPolicyResource(attributes: AdmissionAttributes): boolean {
  return attributes.def.group === 'admissionregistration.k8s.io' && POLICY_RESOURCES.has(attributes.def.plural);
}

/** RequestScope holds what every policy of one request shares, read at most once. */
class RequestScope implements MatchContext {
  private namespace?: KubeObject | null;

  constructor(
    private readonly ctx: RegistryContext,
    readonly attributes: AdmissionAttributes,
    private readonly authorizer: Authorizer,
  ) {}

  /** The values of `authorizer` and `authorizer.requestResource` for the request's user. */
  authorizerValues(): Array<[string, CelValue]> {
    const authz = new AuthorizerValue(this.authorizer, this.attributes.user);
    const { def, subresource, namespace, name } = this.attributes;
    const requestResource = new ResourceCheckValue(authz, { group: def.group, resource: def.plural, subresource, namespace, name });
    return [
      ['authorizer', authz],
      [REQUEST_RESOURCE, requestResource],
    ];
  }

  get registry() {
    return this.ctx.registry;
  }

  namespaceLabels(): Record<string, string> | undefined {
    return this.namespaceObject()?.metadata.labels as Record<string, string> | undefined;
  }

  /** The request's Namespace; none for cluster-scoped kinds and for Namespaces themselves. */
  namespaceObject(): KubeObject | undefined {
    const isNamespace = this.attributes.def.group === '' && this.attributes.def.kind === 'Namespace';
    if (!this.attributes.namespace || isNamespace) return undefined;
    if (this.namespace === undefined) {
      try {
        this.namespace = asKube(this.ctx.store.get({ resource: 'namespaces', namespace: '', name: this.attributes.namespace }));
      } catch {
        this.namespace = null;
      }
    }
    return this.namespace ?? undefined;
  }
}

function dispatch(ctx: RegistryContext, hook: PolicyHook, scope: RequestScope, result: AdmissionResult, denials: Denial[]): void {
  const { policy } = hook;
  const name = policy.metadata?.name ?? '';
  const failClosed = policy.spec?.failurePolicy !== 'Ignore';
  const configError = (message: string, binding?: string) => {
    if (failClosed) denials.push({ policy: name, ...(binding ? { binding } : {}), message });
  };
  const constraints = policy.spec?.matchConstraints;
  const matched = constraints && matchResources(constraints, scope.attributes, scope);
  if (!matched) return;
  const paramDef = paramKindDefinition(ctx, policy);
  if (policy.spec?.paramKind && !paramDef) {
    configError(`failed to configure policy: failed to find resource referenced by paramKind: '${paramKindText(policy)}'`);
    return;
  }
  const annotations = new Map<string, string[]>();
  for (const binding of hook.bindings) {
    const bindingName = binding.metadata?.name ?? '';
    if (binding.spec?.matchResources && !matchResources(binding.spec.matchResources, scope.attributes, scope)) continue;
    let params: Array<KubeObject | null>;
    try {
      params = collectParams(ctx, paramDef, binding, scope.attributes.namespace);
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      configError(`failed to configure binding: ${err.message}`, bindingName);
      continue;
    }
    if (params.length === 0) continue;
    const base = activation(ctx, scope, matched.def, hook.compiled.readsNamespace);
    for (const param of params) {
      const vars = new Map(base);
      vars.set('params', param ? jsonToCel(withTypeMeta(param, policy)) : null);
      const outcome = validate(hook.compiled, vars, failClosed);
      outcome.decisions.forEach((decision, i) => enforce(policy, binding, decision, i, result, denials));
      for (const annotation of outcome.auditAnnotations) {
        if ('error' in annotation) denials.push({ policy: name, binding: bindingName, message: annotation.error });
        else addOnce(annotations, annotation.key, annotation.value.slice(0, MAX_AUDIT_ANNOTATION_VALUE));
      }
    }
  }
  for (const [key, values] of annotations) result.auditAnnotations[`${name}/${key}`] ??= values.join(', ');
}

function addOnce(annotations: Map<string, string[]>, key: string, value: string): void {
  const values = annotations.get(key) ?? [];
  if (!values.includes(value)) values.push(value);
  annotations.set(key, values);
}

function activation(ctx: RegistryContext, scope: RequestScope, matchedDef: AdmissionAttributes['def'], readsNamespace: boolean) {
  const { attributes } = scope;
  const object = inVersion(ctx, attributes.object, attributes.def, matchedDef);
  const oldObject = inVersion(ctx, attributes.oldObject, attributes.def, matchedDef);
  return new Map<string, CelValue>([
    ['object', object ? jsonToCel(object) : null],
    ['oldObject', oldObject ? jsonToCel(oldObject) : null],
    ['request', jsonToCel(admissionRequest(attributes, matchedDef))],
    ['namespaceObject', readsNamespace ? jsonToCel(namespaceObject(scope.namespaceObject())) : null],
    ...scope.authorizerValues(),
  ]);
}

/** Params always carry their apiVersion and kind, as kube-apiserver's wrappedParam ensures. */
function withTypeMeta(param: KubeObject, policy: ValidatingAdmissionPolicy): KubeObject {
  const { apiVersion, kind } = policy.spec?.paramKind ?? {};
  return { ...param, apiVersion: param.apiVersion ?? apiVersion, kind: param.kind ?? kind } as KubeObject;
}

function enforce(
  policy: ValidatingAdmissionPolicy,
  binding: ValidatingAdmissionPolicyBinding,
  decision: Decision,
  index: number,
  result: AdmissionResult,
  denials: Denial[],
): void {
  if (decision.action !== 'deny') return;
  const policyName = policy.metadata?.name ?? '';
  const bindingName = binding.metadata?.name ?? '';
  const actions = binding.spec?.validationActions ?? [];
  for (const action of actions) {
    if (action === 'Deny')
      denials.push({ policy: policyName, binding: bindingName, message: decision.message, ...(decision.reason ? { reason: decision.reason } : {}) });
    else if (action === 'Warn')
      result.warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${decision.message}`);
    else if (action === 'Audit') {
      const failure = {
        message: decision.message,
        policy: binding.spec?.policyName ?? '',
        binding: bindingName,
        expressionIndex: index,
        validationActions: actions,
      };
      // As kube-apiserver's AddAnnotation, the first value of a key stays.
      result.auditAnnotations[VALIDATION_FAILURE_ANNOTATION] ??= JSON.stringify([failure]);
    }
  }
}

const REASON_CODES: Partial<Record<string, number>> = { Unauthorized: 401, Forbidden: 403, RequestEntityTooLarge: 413, Invalid: 422 };

/** denied builds admission.NewForbidden's Status with the denial's reason and code. */
function denied(attributes: AdmissionAttributes, denial: Denial): ApiError {
  const message = denial.binding
    ? `ValidatingAdmissionPolicy '${denial.policy}' with binding '${denial.binding}' denied request: ${denial.message}`
    : `ValidatingAdmissionPolicy '${denial.policy}' denied request: ${denial.message}`;
  const { group, plural } = attributes.def;
  const resource = group ? `${plural}.${group}` : plural;
  const metadata = (attributes.object ?? attributes.oldObject)?.metadata;
  const name = attributes.name || metadata?.name || metadata?.generateName || 'Unknown';
  const reason = (denial.reason ?? 'Invalid') as StatusReason;
  return new ApiError(reason, REASON_CODES[reason] ?? 500, `${resource} "${name}" is forbidden: ${message}`, {
    name,
    ...(group ? { group } : {}),
    kind: plural,
    causes: [{ message }],
  });
}
