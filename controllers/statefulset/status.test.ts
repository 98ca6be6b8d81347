import { describe, expect, it } from 'vitest';
import type { PodView } from './plan.js';
import { computeStatus } from './status.js';

const pod = (ordinal: number, revision: string, over: Partial<PodView> = {}): PodView => ({
  ordinal,
  name: `web-${ordinal}`,
  uid: `${ordinal}`,
  revision,
  terminating: false,
  finished: false,
  runningReady: true,
  available: true,
  ...over,
});

describe('computeStatus', () => {
  const base = { generation: 2, strategy: 'RollingUpdate' as const, currentRevision: 'web-a', updateRevision: 'web-b', collisionCount: undefined };

  it('counts replicas, ready, current and updated pods', () => {
    const status = computeStatus({ ...base, pods: [pod(0, 'web-a'), pod(1, 'web-b', { runningReady: false, available: false }), pod(2, 'web-b')] });
    expect(status).toMatchObject({
      observedGeneration: 2,
      replicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
      currentReplicas: 1,
      updatedReplicas: 2,
      currentRevision: 'web-a',
      updateRevision: 'web-b',
      collisionCount: 0,
    });
  });

  it('promotes the update revision once every pod is updated and ready', () => {
    const status = computeStatus({ ...base, pods: [pod(0, 'web-b'), pod(1, 'web-b')] });
    expect(status).toMatchObject({ currentRevision: 'web-b', currentReplicas: 2, updatedReplicas: 2 });
  });

  it('does not promote with OnDelete', () => {
    const status = computeStatus({ ...base, strategy: 'OnDelete', pods: [pod(0, 'web-b')] });
    expect(status.currentRevision).toBe('web-a');
  });

  it('leaves terminating pods out of current/updated', () => {
    const status = computeStatus({ ...base, pods: [pod(0, 'web-b', { terminating: true })] });
    expect(status).toMatchObject({ replicas: 1, updatedReplicas: 0 });
  });
});
