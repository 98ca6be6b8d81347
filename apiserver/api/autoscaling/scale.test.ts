import { describe, expect, it } from 'vitest';
import { toSchemaDocument } from '../schema-node.js';
import { ScaleSchema } from './scale.js';

describe('Scale', () => {
  it('parses the Scale kubectl scale --current-replicas PUTs back', () => {
    const body = {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '42', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=web' },
    };
    expect(ScaleSchema.parse(body)).toEqual(body);
  });

  it('is published as io.k8s.api.autoscaling.v1.Scale', () => {
    const doc = toSchemaDocument(ScaleSchema);
    expect(Object.keys(doc.definitions)).toEqual(
      expect.arrayContaining(['io.k8s.api.autoscaling.v1.Scale', 'io.k8s.api.autoscaling.v1.ScaleSpec', 'io.k8s.api.autoscaling.v1.ScaleStatus']),
    );
  });
});
