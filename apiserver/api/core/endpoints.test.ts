import { describe, expect, it } from 'vitest';
import { type Endpoints, endpointsDefinition, formatEndpoints } from './endpoints.js';

const address = (ip: string) => ({ ip });

describe('core/v1 Endpoints', () => {
  it('ENDPOINTS lists ready ip:port pairs, three at most, then + N more...', () => {
    const endpoints: Endpoints = {
      metadata: { name: 'web' },
      subsets: [
        { addresses: ['10.244.1.5', '10.244.2.3', '10.244.3.4', '10.244.1.6'].map(address), notReadyAddresses: [address('10.244.9.9')], ports: [{ port: 80 }] },
      ],
    };
    expect(formatEndpoints(endpoints)).toBe('10.244.1.5:80,10.244.2.3:80,10.244.3.4:80 + 1 more...');
  });

  it('counts every port of every subset; bare IPs without ports; <none> without subsets', () => {
    expect(formatEndpoints({ metadata: {}, subsets: [{ addresses: [address('1.1.1.1')], ports: [{ port: 80 }, { port: 443 }] }] })).toBe(
      '1.1.1.1:80,1.1.1.1:443',
    );
    expect(formatEndpoints({ metadata: {}, subsets: [{ addresses: [address('1.1.1.1'), address('fd00::1')] }] })).toBe('1.1.1.1,fd00::1');
    expect(formatEndpoints({ metadata: {}, subsets: [{ addresses: [address('fd00::1')], ports: [{ port: 80 }] }] })).toBe('[fd00::1]:80');
    expect(formatEndpoints({ metadata: {} })).toBe('<none>');
    expect(formatEndpoints({ metadata: {}, subsets: [{ notReadyAddresses: [address('1.1.1.1')], ports: [{ port: 80 }] }] })).toBe('');
  });

  it('is served as endpoints (shortName ep) with NAME, ENDPOINTS, AGE columns and checks port ranges', () => {
    expect(endpointsDefinition.shortNames).toEqual(['ep']);
    expect(endpointsDefinition.printColumns.map((c) => c.name)).toEqual(['Name', 'Endpoints', 'Age']);
    const errors = endpointsDefinition.validate?.({ metadata: {}, subsets: [{ addresses: [address('')], ports: [{ port: 70000 }] }] });
    expect(errors?.map((e) => e.field)).toEqual(['subsets[0].ports[0].port', 'subsets[0].addresses[0].ip']);
  });
});
