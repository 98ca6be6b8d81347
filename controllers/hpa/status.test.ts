/**
 * Status and condition computation: how a sync's outcome becomes the HPA's status, and how a
 * condition is set (lastTransitionTime moves only when the status flips).
 */
import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscalerCondition } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import { findCondition, setCondition } from './conditions.js';
import { calculateStatus, statusNeedsUpdate } from './status.js';
import { NOW_MS } from './testing/fixtures.js';

const LATER_MS = NOW_MS + 60_000;

describe('setCondition', () => {
  const ableToScale: HorizontalPodAutoscalerCondition = {
    type: 'AbleToScale',
    status: 'True',
    lastTransitionTime: '2024-05-01T11:00:00Z',
    reason: 'SucceededGetScale',
    message: "the HPA controller was able to get the target's current scale",
  };

  it('appends a condition it has not seen, stamped now', () => {
    const list = setCondition([ableToScale], 'ScalingActive', { status: 'False', reason: 'FailedGetResourceMetric', message: 'm' }, NOW_MS);
    expect(list.map((c) => c.type)).toEqual(['AbleToScale', 'ScalingActive']);
    expect(list[1]).toEqual({
      type: 'ScalingActive',
      status: 'False',
      lastTransitionTime: '2024-05-01T12:00:00Z',
      reason: 'FailedGetResourceMetric',
      message: 'm',
    });
  });

  it('keeps lastTransitionTime when only the reason or message changes', () => {
    const list = setCondition(
      [ableToScale],
      'AbleToScale',
      { status: 'True', reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 6' },
      LATER_MS,
    );
    expect(list).toEqual([{ ...ableToScale, reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 6' }]);
  });

  it('moves lastTransitionTime when the status flips, in place', () => {
    const input = [ableToScale];
    const list = setCondition(input, 'AbleToScale', { status: 'False', reason: 'FailedGetScale', message: 'gone' }, LATER_MS);
    expect(list).toHaveLength(1);
    expect(findCondition(list, 'AbleToScale')).toMatchObject({ status: 'False', lastTransitionTime: '2024-05-01T12:01:00Z' });
    expect(input[0]).toBe(ableToScale);
    expect(ableToScale.status).toBe('True');
  });
});

describe('calculateStatus', () => {
  const outcome = {
    currentReplicas: 3,
    desiredReplicas: 6,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 140, averageValue: '140m' } } }],
    conditions: [],
    observedGeneration: 2,
    nowMs: NOW_MS,
  };

  it('stamps lastScaleTime when the sync rescaled', () => {
    expect(calculateStatus({ lastScaleTime: '2024-05-01T10:00:00Z' }, { ...outcome, rescaled: true })).toEqual({
      observedGeneration: 2,
      lastScaleTime: '2024-05-01T12:00:00Z',
      currentReplicas: 3,
      desiredReplicas: 6,
      currentMetrics: outcome.currentMetrics,
      conditions: [],
    });
  });

  it('keeps the previous lastScaleTime otherwise', () => {
    expect(calculateStatus({ lastScaleTime: '2024-05-01T10:00:00Z' }, { ...outcome, rescaled: false }).lastScaleTime).toBe('2024-05-01T10:00:00Z');
    expect(calculateStatus(undefined, { ...outcome, rescaled: false }).lastScaleTime).toBeUndefined();
  });
});

describe('statusNeedsUpdate', () => {
  it('is false for the same status, ignoring absent fields', () => {
    expect(statusNeedsUpdate({ currentReplicas: 3, desiredReplicas: 3 }, { currentReplicas: 3, desiredReplicas: 3, currentMetrics: undefined })).toBe(false);
  });
  it('is true when anything differs', () => {
    expect(statusNeedsUpdate({ currentReplicas: 3, desiredReplicas: 3 }, { currentReplicas: 3, desiredReplicas: 4 })).toBe(true);
    expect(statusNeedsUpdate(undefined, { currentReplicas: 0 })).toBe(true);
  });
});
