import { describe, expect, it } from 'vitest';
import { ERR_NO_NODES_AVAILABLE, fitErrorMessage } from './fit-error.js';
import { rejection, StatusCodes } from './framework.js';
import { makePod } from './testing/fixtures.js';

const cpu = rejection('NodeResourcesFit', StatusCodes.Unschedulable, 'Insufficient cpu');
const cpuAndMemory = rejection('NodeResourcesFit', StatusCodes.Unschedulable, 'Insufficient cpu', 'Insufficient memory');
const taint = rejection('TaintToleration', StatusCodes.UnschedulableAndUnresolvable, 'node(s) had untolerated taint {dedicated: gpu}');

describe('fitErrorMessage', () => {
  it('counts reasons over nodes and sorts the "count reason" strings, as kube does', () => {
    const statuses = new Map([
      ['n1', taint],
      ['n2', cpu],
      ['n3', cpu],
    ]);
    expect(fitErrorMessage(makePod('p'), 3, statuses)).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });

  it('counts every reason of a node', () => {
    const message = fitErrorMessage(
      makePod('p'),
      2,
      new Map([
        ['n1', cpuAndMemory],
        ['n2', cpu],
      ]),
    );
    expect(message).toMatch(/^0\/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu\. preemption: 0\/2 nodes are available: 2 No preemption/);
  });

  it('says preemption is off for preemptionPolicy Never', () => {
    const pod = makePod('p', { spec: { preemptionPolicy: 'Never' } });
    expect(fitErrorMessage(pod, 1, new Map([['n1', cpu]]))).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it("has kube's own message for a cluster without nodes", () => {
    expect(fitErrorMessage(makePod('p'), 0, new Map())).toBe(ERR_NO_NODES_AVAILABLE);
  });
});
