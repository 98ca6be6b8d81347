/**
 * What one RBAC PolicyRule allows, and whether one set of rules covers another (the check
 * behind escalation prevention), as kube-apiserver evaluates them. A rule allows a request
 * when its verbs, API groups, resources and resource names all match; `*` matches anything, a
 * resource written as star, slash, subresource ("any resource's scale") matches that
 * subresource of every resource, and a non-resource URL ending in `*` is a prefix.
 */
import { goQuote } from '../api/machinery/go-quote.js';
import type { PolicyRule } from '../api/rbac/index.js';
import { combinedResource, isResourceRequest, type RequestAttributes } from './attributes.js';

const ALL = '*';

const matchesOrAll = (values: readonly string[] | undefined, wanted: string) => (values ?? []).some((v) => v === ALL || v === wanted);

function resourceMatches(ruleResources: readonly string[] | undefined, combined: string, subresource: string): boolean {
  return (ruleResources ?? []).some(
    (r) => r === ALL || r === combined || (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)),
  );
}

const resourceNameMatches = (names: readonly string[] | undefined, name: string) => !names?.length || names.includes(name);

function nonResourceURLMatches(urls: readonly string[] | undefined, path: string): boolean {
  return (urls ?? []).some((u) => u === ALL || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}

/** ruleAllows says whether one PolicyRule allows a request. */
export function ruleAllows(rule: PolicyRule, request: RequestAttributes): boolean {
  if (!matchesOrAll(rule.verbs, request.verb)) return false;
  if (!isResourceRequest(request)) return nonResourceURLMatches(rule.nonResourceURLs, request.path);
  return (
    matchesOrAll(rule.apiGroups, request.apiGroup) &&
    resourceMatches(rule.resources, combinedResource(request), request.subresource ?? '') &&
    resourceNameMatches(rule.resourceNames, request.name ?? '')
  );
}

/** breakdownRule splits a rule into rules of one verb, group, resource and name (or one verb
 * and URL), so that coverage can be checked piece by piece. */
function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const pieces: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) pieces.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          pieces.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) pieces.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return pieces;
}

const hasAll = (owner: readonly string[] | undefined, wanted: readonly string[] | undefined) => (wanted ?? []).every((w) => (owner ?? []).includes(w));

function urlCovers(ownerURL: string, wanted: string): boolean {
  if (ownerURL === wanted) return true;
  return ownerURL.endsWith('*') && wanted.startsWith(ownerURL.replace(/\*+$/, ''));
}

function resourceCovers(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  const ownerResources = owner ?? [];
  if (ownerResources.includes(ALL)) return true;
  return (wanted ?? []).every((w) => {
    if (ownerResources.includes(w)) return true;
    const slash = w.indexOf('/');
    return slash >= 0 && ownerResources.includes(`*/${w.slice(slash + 1)}`);
  });
}

/** ruleCovers says whether an owner's rule grants everything a single-piece rule does. */
function ruleCovers(owner: PolicyRule, piece: PolicyRule): boolean {
  const verbs = (owner.verbs ?? []).includes(ALL) || hasAll(owner.verbs, piece.verbs);
  const urls = (piece.nonResourceURLs ?? []).every((url) => (owner.nonResourceURLs ?? []).some((o) => o === ALL || urlCovers(o, url)));
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups, piece.apiGroups);
  const resources = resourceCovers(owner.resources, piece.resources);
  // A rule for every name is covered only by a rule for every name.
  const names = !owner.resourceNames?.length || (piece.resourceNames?.length ? hasAll(owner.resourceNames, piece.resourceNames) : false);
  return verbs && urls && groups && resources && names;
}

/** uncoveredRules returns the pieces of `wanted` that no rule of `owned` grants (empty: fully covered). */
export function uncoveredRules(owned: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const rule of wanted) {
    for (const piece of breakdownRule(rule)) {
      if (!owned.some((owner) => ruleCovers(owner, piece))) missing.push(piece);
    }
  }
  return missing;
}

/** compactRules merges single-group, single-resource rules that differ only in their verbs
 * into one rule each, as kube-apiserver shortens the list of missing permissions. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = rule.apiGroups?.length === 1 && rule.resources?.length === 1 && !rule.nonResourceURLs?.length && (rule.resourceNames?.length ?? 0) <= 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? []]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, structuredClone(rule));
  }
  return [...compacted, ...simple.values()];
}

/** compactRule prints a rule as kube-apiserver's escalation errors do:
 * `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactRule(rule: PolicyRule): string {
  const list = (values: readonly string[]) => `[${values.map(goQuote).join(' ')}]`;
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${list(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${list(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${list(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${list(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${list(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
