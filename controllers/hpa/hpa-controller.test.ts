/**
 * The HPA controller's event handlers: new, re-specified and deleted HPAs are synced at once;
 * status-only updates (mostly the controller's own writes) wait for the sync period.
 */
import { describe, expect, it } from 'vitest';
import { hpaEventHandlers } from './hpa-controller.js';
import { hpaFixture } from './testing/fixtures.js';

describe('hpaEventHandlers', () => {
  const setup = () => {
    const added: string[] = [];
    return { added, handlers: hpaEventHandlers({ add: (key) => void added.push(key) }) };
  };

  it('enqueues an HPA when it appears and when it is deleted', () => {
    const { added, handlers } = setup();
    handlers.onAdd?.(hpaFixture());
    handlers.onDelete?.(hpaFixture());
    expect(added).toEqual(['default/web', 'default/web']);
  });

  it('enqueues on a spec change (generation) but not on a status-only update', () => {
    const { added, handlers } = setup();
    const before = hpaFixture();
    const statusOnly = { ...before, metadata: { ...before.metadata, resourceVersion: '9' }, status: { currentReplicas: 3 } };
    const respecified = { ...before, metadata: { ...before.metadata, generation: 2 }, spec: { ...before.spec, maxReplicas: 20 } };
    handlers.onUpdate?.(before, statusOnly);
    expect(added).toEqual([]);
    handlers.onUpdate?.(before, respecified);
    expect(added).toEqual(['default/web']);
  });
});
