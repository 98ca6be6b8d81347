import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { claimsOf, usesClaim } from './pvc-protection.js';

const pod = (spec: Partial<Pod['spec']>, phase?: string): Pod =>
  ({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], ...spec }, status: phase ? { phase } : {} }) as Pod;

describe('pvc-protection: which pods use a claim', () => {
  const volumes = [
    { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
    { name: 'scratch', ephemeral: { volumeClaimTemplate: {} } },
  ];

  it('names the claims of persistentVolumeClaim and generic ephemeral volumes', () => {
    expect(claimsOf(pod({ volumes }))).toEqual(['data', 'p-scratch']);
  });

  it('counts only scheduled pods, and a finished pod only for a persistentVolumeClaim volume', () => {
    expect(usesClaim(pod({ volumes }), 'data')).toBe(false);
    expect(usesClaim(pod({ volumes, nodeName: 'n' }), 'data')).toBe(true);
    expect(usesClaim(pod({ volumes, nodeName: 'n' }, 'Succeeded'), 'data')).toBe(true);
    expect(usesClaim(pod({ volumes, nodeName: 'n' }), 'p-scratch')).toBe(true);
    expect(usesClaim(pod({ volumes, nodeName: 'n' }, 'Failed'), 'p-scratch')).toBe(false);
    expect(usesClaim(pod({ volumes, nodeName: 'n' }), 'other')).toBe(false);
  });
});
