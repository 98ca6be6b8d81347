/**
 * What an aggregated ClusterRole's rules should be (kube-controller-manager's
 * clusterroleaggregation, in our words): for each of its clusterRoleSelectors in order, the
 * other ClusterRoles it selects sorted by name, and their rules in order, each rule once.
 * Pure: no API calls, never throws (an invalid selector contributes nothing; validation
 * rejects those on write anyway).
 */
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import type { LabelSelector } from '../../apiserver/api/meta.js';
import type { ClusterRole, PolicyRule } from '../../apiserver/api/rbac/index.js';
import type { DeepReadonly } from '../runtime/types.js';

type ReadonlyRole = DeepReadonly<ClusterRole>;

/** aggregatedRules returns the union of the rules of the roles `role` selects, or undefined
 * when `role` aggregates nothing (no aggregationRule). */
export function aggregatedRules(role: ReadonlyRole, allRoles: readonly ReadonlyRole[]): PolicyRule[] | undefined {
  if (!role.aggregationRule) return undefined;
  const byName = [...allRoles].sort((a, b) => compareNames(a.metadata.name, b.metadata.name));
  const rules: PolicyRule[] = [];
  const kept = new Set<string>();
  for (const selector of role.aggregationRule.clusterRoleSelectors ?? []) {
    const matches = compiledSelector(selector);
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name || !matches(other)) continue;
      for (const rule of other.rules ?? []) {
        const key = ruleKey(rule);
        if (kept.has(key)) continue;
        kept.add(key);
        rules.push(structuredClone(rule) as PolicyRule);
      }
    }
  }
  return rules;
}

/** ruleKey is one string per distinct rule (admin unions ~100 rules: comparing each with every
 * one kept was most of a cluster start's aggregation work). Absent and empty lists differ, as
 * deepEqual has them. */
function ruleKey(rule: DeepReadonly<PolicyRule>): string {
  return JSON.stringify([rule.verbs, rule.apiGroups, rule.resources, rule.resourceNames, rule.nonResourceURLs]);
}

/** rulesMatch: the role already has exactly `rules` (absent rules count as none). */
export function rulesMatch(role: ReadonlyRole, rules: readonly PolicyRule[]): boolean {
  return deepEqual(role.rules ?? [], rules);
}

/** compiledSelector matches roles against `selector`; an invalid one matches nothing. */
function compiledSelector(selector: DeepReadonly<LabelSelector>): (role: ReadonlyRole) => boolean {
  try {
    const compiled = labelSelectorFromStructured(selector as LabelSelector);
    return (role) => compiled.matches(role.metadata.labels);
  } catch {
    return () => false;
  }
}

function compareNames(a: string | undefined, b: string | undefined): number {
  const [x, y] = [a ?? '', b ?? ''];
  return x < y ? -1 : x > y ? 1 : 0;
}
