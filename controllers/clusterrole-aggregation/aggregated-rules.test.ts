import { describe, expect, it } from 'vitest';
import type { ClusterRole, PolicyRule } from '../../apiserver/api/rbac/index.js';
import { aggregatedRules, rulesMatch } from './aggregated-rules.js';

const rule = (resource: string): PolicyRule => ({ apiGroups: [''], resources: [resource], verbs: ['get'] });
const role = (name: string, labels: Record<string, string>, rules: PolicyRule[], selectors?: ClusterRole['aggregationRule']): ClusterRole => ({
  metadata: { name, labels },
  rules,
  ...(selectors ? { aggregationRule: selectors } : {}),
});

describe('aggregatedRules', () => {
  it('collects rules selector by selector, roles by name, each rule once, never its own', () => {
    const target = role('target', { pick: 'a' }, [rule('stale')], { clusterRoleSelectors: [{ matchLabels: { pick: 'b' } }, { matchLabels: { pick: 'a' } }] });
    const all = [
      target,
      role('zeta', { pick: 'a' }, [rule('pods'), rule('services')]),
      role('alpha', { pick: 'a' }, [rule('services')]),
      role('beta', { pick: 'b' }, [rule('secrets'), rule('pods')]),
      role('other', {}, [rule('nodes')]),
    ];
    expect(aggregatedRules(target, all)).toEqual([rule('secrets'), rule('pods'), rule('services')]);
  });

  it('is undefined without an aggregationRule and empty when nothing matches', () => {
    expect(aggregatedRules(role('plain', {}, [rule('pods')]), [])).toBeUndefined();
    expect(aggregatedRules(role('empty', {}, [], { clusterRoleSelectors: [{ matchLabels: { none: 'x' } }] }), [role('x', {}, [rule('pods')])])).toEqual([]);
  });

  it('skips an invalid selector rather than throwing', () => {
    const target = role('t', {}, [], { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: [] }] }] });
    expect(aggregatedRules(target, [role('x', { k: 'v' }, [rule('pods')])])).toEqual([]);
  });

  it('rulesMatch treats absent rules as none', () => {
    expect(rulesMatch({ metadata: { name: 'a' } }, [])).toBe(true);
    expect(rulesMatch(role('a', {}, [rule('pods')]), [rule('pods')])).toBe(true);
    expect(rulesMatch(role('a', {}, [rule('pods')]), [])).toBe(false);
  });
});
