/**
 * The parts of kube-apiserver's admissionregistration validation that webhooks and policies
 * share (pkg/apis/admissionregistration/validation, k8s.io/apiserver/pkg/util/webhook): rules
 * and their resources, match conditions, webhook URLs and services, fully qualified names.
 * Messages, paths, values and their order are kube-apiserver's, so a manifest rejected by a
 * real cluster is rejected here with the same lines.
 */

import type { FieldError } from '../resource-definition.js';
import { GoLiteral } from '../resource-definition.js';
import { duplicate, invalid, isDns1123Subdomain, isQualifiedName, isValidPathSegmentName, isValidPortNum, notSupported, required } from '../validation.js';

/** requiredBecause is field.Required with kube-apiserver's explanation. */
export const requiredBecause = (field: string, detail: string): FieldError => ({ ...required(field), detail });

/** goSlice renders a typed Go slice as field.Invalid prints it (`[]admissionregistration.OperationType{"*", "CREATE"}`). */
export const goSlice = (type: string, values: readonly string[]) => new GoLiteral(`[]${type}{${values.map((v) => JSON.stringify(v)).join(', ')}}`);

/** isFullyQualifiedName is apimachinery's IsFullyQualifiedName (webhook names). */
export function isFullyQualifiedName(name: string | undefined, field: string): FieldError[] {
  if (!name) return [required(field)];
  const errors = isDns1123Subdomain(name);
  if (errors.length > 0) return [invalid(field, name, errors.join(','))];
  if (name.split('.').length < 3) return [invalid(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  resourceNames?: string[];
}

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];

/** validateRuleWithOperations checks a webhook rule or a policy's resource rule. */
export function validateRuleWithOperations(rule: RuleWithOperations, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const operations = rule.operations ?? [];
  if (operations.length === 0) errors.push(required(`${at}.operations`));
  if (operations.length > 1 && operations.includes('*')) {
    errors.push(
      invalid(`${at}.operations`, goSlice('admissionregistration.OperationType', operations), "if '*' is present, must not specify other operations"),
    );
  }
  operations.forEach((operation, i) => {
    if (!OPERATIONS.includes(operation)) errors.push(notSupported(`${at}.operations[${i}]`, operation, OPERATIONS));
  });
  return [...errors, ...validateRule(rule, at)];
}

function validateRule(rule: RuleWithOperations, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const groups = rule.apiGroups ?? [];
  const versions = rule.apiVersions ?? [];
  if (groups.length === 0) errors.push(required(`${at}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) errors.push(invalid(`${at}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  // An empty group is the core group: allowed. An empty version is not.
  if (versions.length === 0) errors.push(required(`${at}.apiVersions`));
  if (versions.length > 1 && versions.includes('*'))
    errors.push(invalid(`${at}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((version, i) => {
    if (version === '') errors.push(required(`${at}.apiVersions[${i}]`));
  });
  errors.push(...validateResources(rule.resources ?? [], `${at}.resources`));
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope)) errors.push(notSupported(`${at}.scope`, rule.scope, SCOPES));
  return errors;
}

/** validateResources checks `resource[/subresource]` entries and their wildcards. */
function validateResources(resources: string[], at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(required(at));
  const withWildcardSubresource = new Set<string>(); // x/*
  const subresourcesOfWildcard = new Set<string>(); // */x
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((entry, i) => {
    if (entry === '') {
      errors.push(required(`${at}[${i}]`));
      return;
    }
    if (entry === '*/*') hasDoubleWildcard = true;
    if (entry === '*') hasSingleWildcard = true;
    const slash = entry.indexOf('/');
    if (slash < 0) {
      // kube-apiserver remembers only the last such entry (a quirk kept for identical results).
      hasResourceWithoutSubresource = entry !== '*';
      return;
    }
    const resource = entry.slice(0, slash);
    const subresource = entry.slice(slash + 1);
    if (withWildcardSubresource.has(resource)) errors.push(invalid(`${at}[${i}]`, entry, `if '${resource}/*' is present, must not specify ${entry}`));
    if (subresourcesOfWildcard.has(subresource)) errors.push(invalid(`${at}[${i}]`, entry, `if '*/${subresource}' is present, must not specify ${entry}`));
    if (subresource === '*') withWildcardSubresource.add(resource);
    if (resource === '*') subresourcesOfWildcard.add(subresource);
  });
  if (resources.length > 1 && hasDoubleWildcard) errors.push(invalid(at, resources, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource) {
    errors.push(invalid(at, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  return errors;
}

/** validateNamedRuleWithOperations checks a policy rule: its resource names, then the rule. */
export function validateNamedRuleWithOperations(rule: RuleWithOperations, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    for (const detail of isValidPathSegmentName(name)) errors.push(invalid(`${at}.resourceNames[${i}]`, name, detail));
    if (seen.has(name)) errors.push(duplicate(`${at}.resourceNames[${i}]`, name));
    seen.add(name);
  });
  return [...errors, ...validateRuleWithOperations(rule, at)];
}

const MAX_MATCH_CONDITIONS = 64;

/** CelCheck compiles the expression at `index` of a list as the server's CEL engine does
 * (apiserver/api cannot import it; apiserver/admission/policy/write-checks.ts provides it):
 * kube-apiserver's Invalid detail when it does not compile, undefined when it does. */
export type CelCheck = (index: number, expression: string) => string | undefined;

/** validateMatchConditions checks names and expressions (compiled by `check` when given). */
export function validateMatchConditions(conditions: Array<{ name?: string; expression?: string }> | undefined, at: string, check?: CelCheck): FieldError[] {
  const list = conditions ?? [];
  const errors: FieldError[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) {
    errors.push({ type: 'FieldValueTooMany', field: at, value: list.length, detail: `must have at most ${MAX_MATCH_CONDITIONS} items` });
  }
  const names = new Set<string>();
  list.forEach((condition, i) => {
    const expression = condition.expression?.trim() ?? '';
    if (!expression) errors.push(required(`${at}[${i}].expression`));
    else errors.push(...celErrors(check, i, `${at}[${i}].expression`, expression, expression));
    if (!condition.name) errors.push(required(`${at}[${i}].name`));
    else for (const detail of isQualifiedName(condition.name)) errors.push(invalid(`${at}[${i}].name`, condition.name, detail));
    if (condition.name) {
      if (names.has(condition.name)) errors.push(duplicate(`${at}[${i}].name`, condition.name));
      names.add(condition.name);
    }
  });
  return errors;
}

/** celErrors is the Invalid error of an expression that `check` says does not compile. */
export function celErrors(check: CelCheck | undefined, index: number, field: string, expression: string, value: string): FieldError[] {
  const detail = check?.(index, expression);
  return detail === undefined ? [] : [invalid(field, value, detail)];
}

const URL_FORM = '; desired format: https://host[/path]';

/** splitUrl takes a URL apart as Go's url.Parse does for the parts validation looks at. */
function splitUrl(url: string): { scheme: string; user?: string; host: string; query: string; fragment: string } {
  const hash = url.indexOf('#');
  const fragment = hash >= 0 ? url.slice(hash + 1) : '';
  let rest = hash >= 0 ? url.slice(0, hash) : url;
  const question = rest.indexOf('?');
  const query = question >= 0 ? rest.slice(question + 1) : '';
  if (question >= 0) rest = rest.slice(0, question);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest)?.[1] ?? '';
  if (scheme) rest = rest.slice(scheme.length + 1);
  if (!rest.startsWith('//')) return { scheme: scheme.toLowerCase(), host: '', query, fragment };
  const authority = rest.slice(2).split('/')[0]!;
  const at = authority.lastIndexOf('@');
  return { scheme: scheme.toLowerCase(), ...(at >= 0 ? { user: authority.slice(0, at) } : {}), host: authority.slice(at + 1), query, fragment };
}

/** validateWebhookUrl is k8s.io/apiserver's ValidateWebhookURL with https forced. */
export function validateWebhookUrl(url: string, at: string): FieldError[] {
  const parts = splitUrl(url);
  const errors: FieldError[] = [];
  if (parts.scheme !== 'https') errors.push(invalid(at, parts.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (!parts.host) errors.push(invalid(at, parts.host, `host must be provided${URL_FORM}`));
  if (parts.user !== undefined) errors.push(invalid(at, parts.user, 'user information is not permitted in the URL'));
  if (parts.fragment) errors.push(invalid(at, parts.fragment, 'fragments are not permitted in the URL'));
  if (parts.query) errors.push(invalid(at, parts.query, 'query parameters are not permitted in the URL'));
  return errors;
}

/** validateWebhookService is k8s.io/apiserver's ValidateWebhookService (port already defaulted to 443). */
export function validateWebhookService(service: { name?: string; namespace?: string; path?: string; port?: number }, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!service.name) errors.push(requiredBecause(`${at}.name`, 'service name is required'));
  if (!service.namespace) errors.push(requiredBecause(`${at}.namespace`, 'service namespace is required'));
  const portErrors = isValidPortNum(service.port ?? 0);
  if (portErrors.length > 0) errors.push(invalid(`${at}.port`, service.port ?? 0, `port is not valid: ${portErrors.join(', ')}`));
  const path = service.path;
  if (path === undefined || path === '' || path === '/') return errors;
  if (path === '//') return [...errors, invalid(`${at}.path`, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errors.push(invalid(`${at}.path`, path, "must start with a '/'"));
  let toCheck = path.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') errors.push(invalid(`${at}.path`, path, `segment[${i}] may not be empty`));
    else for (const failure of isDns1123Subdomain(step)) errors.push(invalid(`${at}.path`, path, `segment[${i}]: ${failure}`));
  });
  return errors;
}
