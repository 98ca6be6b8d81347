import { describe, expect, it } from 'vitest';
import { decisionOf, explainDecision, MAX_REJECTED_LISTED, MAX_SCORED_LISTED } from './explain.js';
import { rejection, StatusCodes } from './framework.js';
import type { ScheduleResult } from './schedule-pod.js';

const cpu = rejection('NodeResourcesFit', StatusCodes.Unschedulable, 'Insufficient cpu', 'Insufficient memory');

describe('explain', () => {
  it('lists rejections and scores of a scheduled pod, winner first', () => {
    const result: ScheduleResult = {
      kind: 'Scheduled',
      nodeName: 'n2',
      totalNodes: 3,
      rejected: new Map([['n1', cpu]]),
      scores: [
        { node: 'n2', total: 300, byPlugin: { NodeResourcesFit: 90 } },
        { node: 'n3', total: 200, byPlugin: { NodeResourcesFit: 40 } },
      ],
    };
    expect(JSON.parse(explainDecision(result))).toEqual({
      result: 'Scheduled',
      node: 'n2',
      nodes: 3,
      feasible: 2,
      rejected: { n1: 'NodeResourcesFit: Insufficient cpu, Insufficient memory' },
      scores: { n2: { total: 300, NodeResourcesFit: 90 }, n3: { total: 200, NodeResourcesFit: 40 } },
    });
  });

  it('stays small on big clusters and says how much it left out', () => {
    const rejected = new Map(Array.from({ length: 40 }, (_, i) => [`r${i}`, cpu] as const));
    const scores = Array.from({ length: 20 }, (_, i) => ({ node: `s${i}`, total: 100 - i, byPlugin: {} }));
    const decision = decisionOf({ kind: 'Scheduled', nodeName: 's0', totalNodes: 60, rejected, scores });
    expect(Object.keys(decision.rejected)).toHaveLength(MAX_REJECTED_LISTED);
    expect(Object.keys(decision.scores)).toHaveLength(MAX_SCORED_LISTED);
    expect(decision.omitted).toEqual({ rejected: 40 - MAX_REJECTED_LISTED, scores: 20 - MAX_SCORED_LISTED });
  });

  it('describes an unschedulable pod without scores', () => {
    const decision = decisionOf({ kind: 'Unschedulable', totalNodes: 1, rejected: new Map([['n1', cpu]]), message: 'm' });
    expect(decision).toEqual({
      result: 'Unschedulable',
      nodes: 1,
      feasible: 0,
      rejected: { n1: 'NodeResourcesFit: Insufficient cpu, Insufficient memory' },
      scores: {},
    });
  });
});
