import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { fieldPath, keyElement } from './path-element.js';

const paths = (set: FieldSet) => set.paths().map((path) => path.map((e) => (e.kind === 'field' ? e.name : JSON.stringify(e))).join('.'));

describe('FieldSet pruning in place', () => {
  const container = [...fieldPath('spec', 'containers'), keyElement([['name', 'app']])];
  const build = () =>
    FieldSet.of(
      fieldPath('metadata', 'labels', 'app'),
      fieldPath('spec', 'replicas'),
      [...container, ...fieldPath('image')],
      fieldPath('status', 'phase'),
      fieldPath('spec'),
    );

  it('removeAtOrBelow drops a path and everything under it, and no empty node is left', () => {
    const set = build().removeAtOrBelow(fieldPath('spec', 'containers'));
    expect(paths(set)).toEqual(['spec', 'metadata.labels.app', 'spec.replicas', 'status.phase']);
    set.removeAtOrBelow(fieldPath('metadata', 'labels', 'app'));
    expect(set.hasAtOrBelow(fieldPath('metadata'))).toBe(false);
    expect(paths(set.removeAtOrBelow(fieldPath('nothing', 'here')))).toEqual(['spec', 'spec.replicas', 'status.phase']);
  });

  it('keepAtOrBelow keeps only a path and what is under it', () => {
    expect(paths(build().keepAtOrBelow(fieldPath('spec')))).toEqual(['spec', 'spec.replicas', `spec.containers.${JSON.stringify(container[2])}.image`]);
    expect(paths(build().keepAtOrBelow(fieldPath('status', 'phase')))).toEqual(['status.phase']);
    expect(build().keepAtOrBelow(fieldPath('absent')).isEmpty()).toBe(true);
  });
});
