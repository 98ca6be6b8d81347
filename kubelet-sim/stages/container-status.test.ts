import { describe, expect, it } from 'vitest';
import { formatDuration } from './actions.js';
import { containerIdOf, imageIdOf, normalizeImage } from './container-status.js';

describe('container status values', () => {
  it('normalises image references as containerd reports them', () => {
    expect(normalizeImage('nginx')).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage('nginx:1.27')).toBe('docker.io/library/nginx:1.27');
    expect(normalizeImage('bitnami/redis:7')).toBe('docker.io/bitnami/redis:7');
    expect(normalizeImage('registry.k8s.io/pause:3.9')).toBe('registry.k8s.io/pause:3.9');
    expect(normalizeImage('localhost:5000/app')).toBe('localhost:5000/app:latest');
    expect(normalizeImage('nginx@sha256:abc')).toBe('docker.io/library/nginx@sha256:abc');
  });

  it('makes stable image and container IDs', () => {
    expect(imageIdOf('nginx:1.27')).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(imageIdOf('nginx:1.27')).toBe(imageIdOf('docker.io/library/nginx:1.27'));
    expect(containerIdOf('uid', 'c', 0)).not.toBe(containerIdOf('uid', 'c', 1));
    expect(containerIdOf('uid', 'c', 0)).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
  });

  it("formats durations as Go's time.Duration", () => {
    expect([300, 1500, 10_000, 80_000, 300_000].map(formatDuration)).toEqual(['300ms', '1.5s', '10s', '1m20s', '5m0s']);
  });
});
