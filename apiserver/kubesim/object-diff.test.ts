import { describe, expect, it } from 'vitest';
import { diffObjects } from './object-diff.js';

describe('diffObjects', () => {
  it('reports changed, added and removed leaf fields with dotted paths', () => {
    const before = { spec: { replicas: 3, paused: true }, metadata: { name: 'web' } };
    const after = { spec: { replicas: 5, minReadySeconds: 2 }, metadata: { name: 'web' } };
    expect(diffObjects(before, after)).toEqual([
      { path: 'spec.replicas', old: 3, new: 5 },
      { path: 'spec.minReadySeconds', new: 2 },
      { path: 'spec.paused', old: true },
    ]);
  });

  it('leaves out resourceVersion, managedFields and generation', () => {
    const before = { metadata: { resourceVersion: '7', generation: 1, managedFields: [{ manager: 'a' }], labels: { a: '1' } } };
    const after = { metadata: { resourceVersion: '9', generation: 2, managedFields: [{ manager: 'b' }], labels: { a: '2' } } };
    expect(diffObjects(before, after)).toEqual([{ path: 'metadata.labels.a', old: '1', new: '2' }]);
  });

  it('lists each field of an added object, not one blob', () => {
    expect(diffObjects({ spec: {} }, { spec: {}, status: { phase: 'Running', podIP: '10.0.0.1' } })).toEqual([
      { path: 'status.phase', new: 'Running' },
      { path: 'status.podIP', new: '10.0.0.1' },
    ]);
  });

  it('addresses keyed list items by their type or name', () => {
    const before = {
      status: {
        conditions: [
          { type: 'Ready', status: 'False' },
          { type: 'PodScheduled', status: 'True' },
        ],
      },
    };
    const after = {
      status: {
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'True' },
          { type: 'Initialized', status: 'True' },
        ],
      },
    };
    expect(diffObjects(before, after)).toEqual([
      { path: 'status.conditions[type=Ready].status', old: 'False', new: 'True' },
      { path: 'status.conditions[type=Initialized].type', new: 'Initialized' },
      { path: 'status.conditions[type=Initialized].status', new: 'True' },
    ]);
    const containers = (image: string) => ({ spec: { containers: [{ name: 'app', image }] } });
    expect(diffObjects(containers('nginx:1'), containers('nginx:2'))).toEqual([{ path: 'spec.containers[name=app].image', old: 'nginx:1', new: 'nginx:2' }]);
  });

  it('compares unkeyed lists as a whole and quotes keys that are not plain words', () => {
    expect(diffObjects({ spec: { args: ['a'] } }, { spec: { args: ['a', 'b'] } })).toEqual([{ path: 'spec.args', old: ['a'], new: ['a', 'b'] }]);
    expect(diffObjects({ metadata: { annotations: {} } }, { metadata: { annotations: { 'kubesim.io/load-cpu': '1' } } })).toEqual([
      { path: 'metadata.annotations["kubesim.io/load-cpu"]', new: '1' },
    ]);
  });

  it('reports a change of type as one change and nothing for equal objects', () => {
    expect(diffObjects({ spec: { x: { a: 1 } } }, { spec: { x: 'flat' } })).toEqual([{ path: 'spec.x', old: { a: 1 }, new: 'flat' }]);
    expect(diffObjects({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });
});
