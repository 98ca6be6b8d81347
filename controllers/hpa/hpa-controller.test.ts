/**
 * Which HPA updates the HPA controller acts on at once: a spec change (generation) does; a
 * status-only update (mostly the controller's own writes) waits for the sync period.
 */
import { describe, expect, it } from 'vitest';
import { hpaSpecChanged } from './hpa-controller.js';
import { hpaFixture } from './testing/fixtures.js';

describe('hpaSpecChanged', () => {
  it('lets a spec change (generation) through but not a status-only update or a resync', () => {
    const before = hpaFixture();
    const statusOnly = { ...before, metadata: { ...before.metadata, resourceVersion: '9' }, status: { currentReplicas: 3 } };
    const respecified = { ...before, metadata: { ...before.metadata, generation: 2 }, spec: { ...before.spec, maxReplicas: 20 } };
    expect(hpaSpecChanged(before, statusOnly)).toBe(false);
    expect(hpaSpecChanged(before, before)).toBe(false);
    expect(hpaSpecChanged(before, respecified)).toBe(true);
  });
});
