import { describe, expect, it } from 'vitest';
import { PodIpAllocator } from './pod-ip-allocator.js';

describe('PodIpAllocator', () => {
  it('hands out addresses of the node /24, one per pod, stable per key', () => {
    const ips = new PodIpAllocator(3);
    expect(ips.allocate('default/a')).toBe('10.244.3.2');
    expect(ips.allocate('default/b')).toBe('10.244.3.3');
    expect(ips.allocate('default/a')).toBe('10.244.3.2');
    expect(ips.size).toBe(2);
  });

  it('keeps an address the pod already reports when it is free and in range', () => {
    const ips = new PodIpAllocator(1);
    expect(ips.allocate('default/a', '10.244.1.77')).toBe('10.244.1.77');
    expect(ips.allocate('default/b', '10.244.1.77')).not.toBe('10.244.1.77');
    expect(ips.allocate('default/c', '10.244.9.5')).toMatch(/^10\.244\.1\./);
  });

  it('does not reuse a released address at once, and fails when the range is full', () => {
    const ips = new PodIpAllocator(1);
    ips.allocate('a');
    ips.release('a');
    expect(ips.allocate('b')).toBe('10.244.1.3');
    for (let i = 0; i < 252; i++) ips.allocate(`p${i}`);
    expect(() => ips.allocate('one-too-many')).toThrow(/no free pod IP/);
  });
});
