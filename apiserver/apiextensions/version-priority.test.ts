import { describe, expect, it } from 'vitest';
import { compareVersionPriority } from './version-priority.js';

describe('compareVersionPriority', () => {
  it('orders GA, beta, alpha, then other names alphabetically (Kubernetes version priority)', () => {
    const versions = ['foo10', 'v11alpha2', 'v1beta1', 'v10beta3', 'v12alpha1', 'v2', 'foo1', 'v1', 'v3beta1', 'v11beta2'];
    expect(versions.sort(compareVersionPriority)).toEqual([
      'v2',
      'v1',
      'v11beta2',
      'v10beta3',
      'v3beta1',
      'v1beta1',
      'v12alpha1',
      'v11alpha2',
      'foo1',
      'foo10',
    ]);
  });
});
