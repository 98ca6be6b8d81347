import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework.js';
import { makeNode, makeNodeInfo, makePod } from '../testing/fixtures.js';
import { ERR_REASON_NODE_NAME, nodeNamePlugin } from './node-name.js';

describe('NodeName', () => {
  const info = makeNodeInfo(makeNode('node-1'));

  it('accepts any node when the pod names none', () => {
    expect(nodeNamePlugin.filter(new CycleState(), makePod('p'), info)).toBeUndefined();
  });

  it('accepts only the named node', () => {
    expect(nodeNamePlugin.filter(new CycleState(), makePod('p', { nodeName: 'node-1' }), info)).toBeUndefined();
    expect(nodeNamePlugin.filter(new CycleState(), makePod('p', { nodeName: 'node-2' }), info)).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: [ERR_REASON_NODE_NAME],
      plugin: 'NodeName',
    });
  });
});
