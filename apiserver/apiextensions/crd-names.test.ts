import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../api/apiextensions/index.js';
import { leaseDefinition } from '../api/coordination/lease.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { decideNames, namesSettled, takenNames } from './crd-names.js';

function crd(plural: string, kind: string, accepted?: CustomResourceDefinition['spec']['names']): CustomResourceDefinition {
  return {
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      versions: [],
      names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List`, shortNames: ['w'] },
    },
    status: accepted ? { acceptedNames: accepted } : { acceptedNames: { plural: '', kind: '' } },
  };
}

describe('decideNames', () => {
  it('accepts free names and moves Established to Installing', () => {
    const decision = decideNames(crd('widgets', 'Widget'), takenNames('example.com', [], []));
    expect(decision.acceptedNames).toEqual({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['w'] });
    expect(decision.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(decision.established).toMatchObject({ status: 'False', reason: 'Installing' });
  });

  it('keeps names another CRD of the group holds, reporting the last conflict', () => {
    const holder = crd('widgets', 'Widget', { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['w'] });
    const decision = decideNames(crd('gadgets', 'Widget'), takenNames('example.com', [holder], []));
    expect(decision.acceptedNames).toEqual({ plural: 'gadgets', singular: 'gadget', kind: '' });
    expect(decision.namesAccepted).toMatchObject({ status: 'False', reason: 'ListKindConflict', message: '"WidgetList" is already in use' });
    expect(decision.established).toMatchObject({ status: 'False', reason: 'NotAccepted' });
  });

  it('counts the built-in kinds of the group as taken', () => {
    const leases = { ...crd('leases', 'Lease'), spec: { ...crd('leases', 'Lease').spec, group: 'coordination.k8s.io' } };
    const taken = takenNames('coordination.k8s.io', [], [leaseDefinition as unknown as ResourceDefinition]);
    expect(decideNames(leases, taken).namesAccepted).toMatchObject({ status: 'False', reason: 'ListKindConflict' });
  });

  it('sees nothing to decide once the requested names are the accepted ones', () => {
    const names = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['w'] };
    expect(namesSettled(crd('widgets', 'Widget', names))).toBe(true);
    expect(namesSettled(crd('widgets', 'Widget'))).toBe(false);
  });
});
