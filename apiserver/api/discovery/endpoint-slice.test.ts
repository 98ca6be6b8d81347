import { describe, expect, it } from 'vitest';
import { type EndpointSlice, endpointSliceDefinition, formatSliceEndpoints, formatSlicePorts } from './endpoint-slice.js';

function slice(addresses: string[], ports: EndpointSlice['ports']): EndpointSlice {
  return { metadata: { name: 'web-abc' }, addressType: 'IPv4', endpoints: addresses.map((a) => ({ addresses: [a] })), ports };
}

describe('discovery.k8s.io/v1 EndpointSlice', () => {
  it('PORTS and ENDPOINTS list three at most, then + N more...; <unset> when empty', () => {
    const s = slice(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5'], [{ port: 80 }, { name: 'metrics' }, {}]);
    expect(formatSliceEndpoints(s)).toBe('10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...');
    expect(formatSlicePorts(s)).toBe('80,metrics,*');
    expect(formatSliceEndpoints(slice([], []))).toBe('<unset>');
    expect(formatSlicePorts(slice([], undefined))).toBe('<unset>');
  });

  it('prints NAME ADDRESSTYPE PORTS ENDPOINTS AGE', () => {
    expect(endpointSliceDefinition.printColumns.map((c) => c.name)).toEqual(['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
    const row = endpointSliceDefinition.printColumns.slice(0, 4).map((c) => c.cell(slice(['10.0.0.1'], [{ port: 8080 }]), { nowMs: 0 }));
    expect(row).toEqual(['web-abc', 'IPv4', '8080', '10.0.0.1']);
  });

  it('rejects endpoints without addresses and ports out of range', () => {
    const errors = endpointSliceDefinition.validate?.({ ...slice([], [{ port: 0 }]), endpoints: [{ addresses: [] }] });
    expect(errors?.map((e) => e.field)).toEqual(['endpoints[0].addresses', 'ports[0].port']);
  });
});
