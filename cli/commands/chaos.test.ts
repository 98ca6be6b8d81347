import { describe, expect, it } from 'vitest';
import { UsageError } from '../args.js';
import { chaosRequest, formatChaosResult } from './chaos.js';

describe('kubesim chaos arguments', () => {
  it('turns the command words and flags into a chaos request (durations in seconds)', () => {
    expect(chaosRequest('kill', 'replicaset', {})).toEqual({ action: 'kill-loop', target: 'replicaset' });
    expect(chaosRequest('stop', 'replicaset', { for: '30s' })).toEqual({ action: 'stop-loop', target: 'replicaset', seconds: 30 });
    expect(chaosRequest('slow-api', undefined, { latency: '300ms', for: '1m' })).toEqual({ action: 'slow-api', latencyMs: 300, seconds: 60 });
    expect(chaosRequest('random', undefined, { seed: 7, for: '60s', every: '2.5s' })).toEqual({ action: 'random', seed: 7, seconds: 60, intervalSeconds: 2.5 });
    expect(chaosRequest('stop-node', 'node-2', {})).toEqual({ action: 'stop-node', target: 'node-2' });
  });

  it('names a bad word or duration', () => {
    expect(() => chaosRequest('explode', undefined, {})).toThrow(UsageError);
    expect(() => chaosRequest('partition', 'kubelet', { for: '20' })).toThrow(/--for: time: missing unit in duration "20"/);
    expect(() => chaosRequest('partition', 'kubelet', { for: '0s' })).toThrow(/--for must be longer than 0/);
  });

  it('prints what was done, then what to expect', () => {
    expect(formatChaosResult({ apiVersion: 'kubesim.io/v1alpha1', kind: 'ChaosResult', action: 'kill-loop', did: 'killed x', expect: 'it restarts' })).toBe(
      'killed x\nExpect: it restarts',
    );
  });
});
