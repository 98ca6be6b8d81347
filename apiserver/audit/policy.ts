/**
 * kube-apiserver's audit policy (audit.k8s.io/v1 Policy, --audit-policy-file): rules tried in
 * order, the first that matches a request gives its level (None, Metadata, Request,
 * RequestResponse), the stages to leave out and whether managedFields are dropped from logged
 * bodies; a request no rule matches is not logged. Rules are compiled once into predicates over
 * a request's authorization attributes, so evaluating a request allocates nothing.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { RequestAttributes, ResourceRequest } from '../authz/attributes.js';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface AuditPolicy {
  apiVersion?: string;
  kind?: string;
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What the policy says about one request (kube's RequestAuditConfig). */
export interface RequestAuditConfig {
  level: Level;
  /** Stages not to log (the rule's and the policy's). */
  omitStages: ReadonlySet<Stage>;
  omitManagedFields: boolean;
}

/** levelAtLeast: `level` logs at least what `floor` logs. */
export const levelAtLeast = (level: Level, floor: Level) => LEVELS.indexOf(level) >= LEVELS.indexOf(floor);

type Matcher = (attributes: RequestAttributes) => boolean;

/** CompiledPolicy evaluates requests against the rules, in order. */
export class CompiledPolicy {
  private readonly rules: Array<{ matches: Matcher; config: RequestAuditConfig }>;
  private readonly none: RequestAuditConfig;

  constructor(policy: AuditPolicy) {
    const policyStages = policy.omitStages ?? [];
    this.rules = policy.rules.map((rule) => ({
      matches: compileRule(rule),
      config: {
        level: rule.level,
        omitStages: new Set([...policyStages, ...(rule.omitStages ?? [])]),
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
      },
    }));
    this.none = { level: 'None', omitStages: new Set(policyStages), omitManagedFields: policy.omitManagedFields ?? false };
  }

  evaluate(attributes: RequestAttributes): RequestAuditConfig {
    for (const rule of this.rules) if (rule.matches(attributes)) return rule.config;
    return this.none;
  }
}

/** compileRule turns a rule into one predicate, checking only the fields the rule sets. */
function compileRule(rule: PolicyRule): Matcher {
  const checks: Matcher[] = [];
  if (rule.users?.length) {
    const users = new Set(rule.users);
    checks.push((a) => users.has(a.user.username));
  }
  if (rule.userGroups?.length) {
    const groups = new Set(rule.userGroups);
    checks.push((a) => a.user.groups.some((g) => groups.has(g)));
  }
  if (rule.verbs?.length) {
    const verbs = new Set(rule.verbs);
    checks.push((a) => verbs.has(a.verb));
  }
  if (rule.namespaces?.length || rule.resources?.length) checks.push(resourceMatcher(rule));
  else if (rule.nonResourceURLs?.length) checks.push(nonResourceMatcher(rule.nonResourceURLs));
  return (a) => checks.every((check) => check(a));
}

function resourceMatcher(rule: PolicyRule): Matcher {
  // Cluster-scoped and all-namespace requests have the namespace "".
  const namespaces = rule.namespaces?.length ? new Set(rule.namespaces) : undefined;
  const groups = rule.resources?.length ? rule.resources.map(groupResourcesMatcher) : undefined;
  return (a) => {
    if (!('resource' in a)) return false;
    if (namespaces && !namespaces.has(a.namespace ?? '')) return false;
    return groups === undefined || groups.some((matches) => matches(a));
  };
}

/** A GroupResources entry: every resource of the group when it lists none; `*`, `pods/log`,
 * `*\/status` (that subresource of any resource), `pods/*` (pods and all its subresources). */
function groupResourcesMatcher(entry: GroupResources): (a: ResourceRequest) => boolean {
  const group = entry.group ?? '';
  const resources = entry.resources ?? [];
  const names = entry.resourceNames?.length ? new Set(entry.resourceNames) : undefined;
  return (a) => {
    if (a.apiGroup !== group) return false;
    if (resources.length === 0) return true;
    if (names && !names.has(a.name ?? '')) return false;
    const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    return resources.some(
      (r) =>
        r === '*' ||
        r === combined ||
        (a.subresource !== undefined && r.startsWith('*/') && r.slice(2) === a.subresource) ||
        (r.endsWith('/*') && r.slice(0, -2) === a.resource),
    );
  };
}

function nonResourceMatcher(urls: string[]): Matcher {
  return (a) => {
    if ('resource' in a) return false;
    return urls.some((spec) => spec === '*' || spec === a.path || (spec.endsWith('*') && a.path.startsWith(spec.replace(/\*+$/, ''))));
  };
}

/** validatePolicy lists what kube-apiserver refuses in a policy, as field errors. */
export function validatePolicy(policy: AuditPolicy): string[] {
  const errors: string[] = [];
  const stages = (list: unknown, path: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) return void errors.push(`${path}: Invalid value: must be a list`);
    list.forEach((stage, i) => {
      if (!(STAGES as readonly unknown[]).includes(stage))
        errors.push(`${path}[${i}]: Invalid value: ${JSON.stringify(stage)}: allowed stages are ${STAGES.join(',')}`);
    });
  };
  stages(policy.omitStages, 'omitStages');
  policy.rules.forEach((rule, i) => {
    const path = `rules[${i}]`;
    if (rule.level === undefined || (rule.level as string) === '') errors.push(`${path}.level: Required value`);
    else if (!LEVELS.includes(rule.level))
      errors.push(`${path}.level: Unsupported value: ${JSON.stringify(rule.level)}: supported values: ${LEVELS.map((l) => `"${l}"`).join(', ')}`);
    (rule.nonResourceURLs ?? []).forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/'))
        errors.push(`${path}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(url)}: non-resource URL rules must begin with a '/' character`);
      if (url.slice(0, -1).includes('*'))
        errors.push(
          `${path}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(url)}: non-resource URL wildcards '*' must be the final character of the rule`,
        );
    });
    for (const entry of rule.resources ?? []) {
      if (entry.resourceNames?.length && !entry.resources?.length)
        errors.push(`${path}.resources.resourceNames: Invalid value: using resourceNames requires at least one resource`);
    }
    stages(rule.omitStages, `${path}.omitStages`);
    if (rule.nonResourceURLs?.length && (rule.resources?.length || rule.namespaces?.length)) {
      errors.push(`${path}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`);
    }
  });
  return errors;
}

/** parsePolicy reads a Policy document (YAML or JSON) and checks it; throws with kube's words. */
export function parsePolicy(text: string): AuditPolicy {
  const policy = parseYaml(text) as AuditPolicy | null;
  if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) throw new Error('failed decoding: the policy is not an object');
  if (policy.apiVersion !== 'audit.k8s.io/v1' || policy.kind !== 'Policy') {
    throw new Error(`unknown group version field ${policy.apiVersion ?? ''}, Kind=${policy.kind ?? ''} in policy`);
  }
  if (!Array.isArray(policy.rules) || policy.rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  const errors = validatePolicy(policy);
  if (errors.length) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  return policy;
}

/** readPolicyFile is --audit-policy-file. */
export function readPolicyFile(path: string): AuditPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read file path ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    throw new Error(`${(err as Error).message}: from file ${path}`);
  }
}
