import { describe, expect, it } from 'vitest';
import { FakeClock } from '../apiserver/api/machinery/clock.js';
import { AssumedCache } from './assumed-cache.js';
import type { ReadonlyPod } from './framework.js';
import { makePod } from './testing/fixtures.js';

describe('AssumedCache', () => {
  const pod = makePod('p', { cpu: '1' });

  function setup() {
    const clock = new FakeClock(1_000);
    const cache = new AssumedCache({ clock, ttlMs: 30_000 });
    const informer = new Map<string, ReadonlyPod>([['default/p', pod]]);
    const prune = () => cache.prune((key) => informer.get(key));
    return { clock, cache, informer, prune };
  }

  it('counts an assumed pod on its node, as a copy with spec.nodeName set', () => {
    const { cache, prune } = setup();
    cache.assume(pod, 'n1');
    prune();
    const [assumed] = cache.podsByNode().get('n1') ?? [];
    expect(assumed?.spec.nodeName).toBe('n1');
    expect(pod.spec.nodeName).toBeUndefined();
    expect(cache.isAssumed('default/p')).toBe(true);
  });

  it('does not take a pod re-created under the same name for the assumed one', () => {
    const { cache } = setup();
    cache.assume(pod, 'n1');
    expect(cache.isAssumed('default/p', pod.metadata.uid)).toBe(true);
    expect(cache.isAssumed('default/p', 'a-new-uid')).toBe(false);
  });

  it('drops the assumption once the informer shows the pod bound, deleted or re-created', () => {
    const variants: Array<ReadonlyPod | undefined> = [
      { ...pod, spec: { ...pod.spec, nodeName: 'n1' } },
      undefined,
      { ...pod, metadata: { ...pod.metadata, uid: 'another' } },
    ];
    for (const cached of variants) {
      const { cache, informer, prune } = setup();
      cache.assume(pod, 'n1');
      if (cached) informer.set('default/p', cached);
      else informer.delete('default/p');
      prune();
      expect(cache.size).toBe(0);
    }
  });

  it('expires a finished binding the informer never confirmed, but not one still in flight', () => {
    const { clock, cache, prune } = setup();
    cache.assume(pod, 'n1');
    clock.advance(60_000);
    prune();
    expect(cache.size).toBe(1);
    cache.finishBinding('default/p');
    clock.advance(29_999);
    prune();
    expect(cache.size).toBe(1);
    clock.advance(1);
    prune();
    expect(cache.size).toBe(0);
  });

  it('forgets on request (failed binding)', () => {
    const { cache } = setup();
    cache.assume(pod, 'n1');
    cache.forget('default/p');
    expect(cache.isAssumed('default/p')).toBe(false);
  });
});
