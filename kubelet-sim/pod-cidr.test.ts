import { describe, expect, it } from 'vitest';
import { podCidrOfIndex, podNetworkPrefix } from './pod-cidr.js';

describe('pod CIDRs by node index', () => {
  it('keeps 10.244.<index>.0/24 for the first 256 nodes', () => {
    expect(podCidrOfIndex(0)).toBe('10.244.0.0/24');
    expect(podCidrOfIndex(1)).toBe('10.244.1.0/24');
    expect(podCidrOfIndex(255)).toBe('10.244.255.0/24');
    expect(podNetworkPrefix(3)).toBe('10.244.3.');
  });

  it('gives thousands of nodes distinct ranges, none inside the service range 10.96.0.0/12', () => {
    const count = 36_864;
    const cidrs = Array.from({ length: count }, (_, index) => podCidrOfIndex(index));
    expect(new Set(cidrs).size).toBe(count);
    expect(cidrs[256]).toBe('10.245.0.0/24');
    const secondOctets = new Set(cidrs.map((cidr) => Number(cidr.split('.')[1])));
    for (let octet = 96; octet <= 111; octet++) expect(secondOctets.has(octet)).toBe(false);
    // Past them the ranges repeat.
    expect(podCidrOfIndex(count)).toBe(podCidrOfIndex(0));
  });
});
