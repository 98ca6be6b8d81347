import { describe, expect, it } from 'vitest';
import { compileJsonPath } from './json-path.js';

const object = {
  metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'cron' } },
  spec: {
    replicas: 3,
    ports: [
      { name: 'http', port: 80 },
      { name: 'metrics', port: 9090 },
    ],
  },
  status: {
    conditions: [
      { type: 'Synced', status: 'False' },
      { type: 'Ready', status: 'True' },
    ],
  },
};
const select = (path: string) => compileJsonPath(path)?.(object);

describe('compileJsonPath', () => {
  it('follows fields, quoted keys and indexes', () => {
    expect(select('.spec.replicas')).toEqual([3]);
    expect(select(".metadata.labels['app.kubernetes.io/name']")).toEqual(['cron']);
    expect(select('.spec.ports[1].port')).toEqual([9090]);
    expect(select('.spec.ports[-1].name')).toEqual(['metrics']);
    expect(select('.spec.ports[*].name')).toEqual(['http', 'metrics']);
  });

  it('filters list items', () => {
    expect(select('.status.conditions[?(@.type=="Ready")].status')).toEqual(['True']);
    expect(select(".status.conditions[?(@.type!='Ready')].type")).toEqual(['Synced']);
    expect(select('.spec.ports[?(@.port==80)].name')).toEqual(['http']);
  });

  it('selects nothing for missing keys, and refuses what it cannot parse', () => {
    expect(select('.spec.missing.deeper')).toEqual([]);
    expect(select('.spec.ports[7]')).toEqual([]);
    expect(compileJsonPath('spec.replicas')).toBeUndefined();
    expect(compileJsonPath('.spec[')).toBeUndefined();
  });
});
