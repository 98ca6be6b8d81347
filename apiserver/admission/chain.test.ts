/** The chain's guarantees: synchronous while its plugins are, ordered phases, and the write in
 * the same synchronous block as the last validating plugin even after an asynchronous one. */
import { describe, expect, it } from 'vitest';
import { configMapDefinition } from '../api/core/config-map.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import type { RegistryContext } from '../registry/context.js';
import { AdmissionChain } from './chain.js';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.js';

const ctx = {} as RegistryContext;
const configMaps = configMapDefinition as unknown as ResourceDefinition;
const attributes = (): AdmissionAttributes => ({
  operation: 'CREATE',
  def: configMaps,
  subresource: '',
  namespace: 'default',
  name: 'cm',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
  user: { username: 'u', groups: [] },
  dryRun: false,
});
const result = () => ({ warnings: [] as string[], auditAnnotations: {} });

describe('AdmissionChain', () => {
  it('stays synchronous when every plugin is, and runs plugins in order', () => {
    const order: string[] = [];
    const plugin = (name: string): AdmissionPlugin => ({
      name,
      admit: () => void order.push(`admit ${name}`),
      validate: () => void order.push(`validate ${name}`),
    });
    const chain = new AdmissionChain([plugin('a'), plugin('b')]);
    const attrs = attributes();
    expect(chain.admit(ctx, attrs, result())).toBeUndefined();
    expect(chain.validate(ctx, attrs, result(), () => 'written')).toBe('written');
    expect(order).toEqual(['admit a', 'admit b', 'validate a', 'validate b']);
  });

  it('skips plugins that do not handle the write, and says when none does', () => {
    const never: AdmissionPlugin = { name: 'never', handles: () => false, validate: () => expect.fail('not handled') };
    const chain = new AdmissionChain([never]);
    expect(chain.handles('CREATE', configMaps, '')).toBe(false);
    expect(chain.validate(ctx, attributes(), result(), () => 1)).toBe(1);
  });

  it('writes in the same synchronous block as the last plugin after an asynchronous one', async () => {
    const events: string[] = [];
    const slow: AdmissionPlugin = { name: 'slow', validate: () => new Promise((resolve) => setTimeout(resolve, 1)) };
    const last: AdmissionPlugin = {
      name: 'last',
      validate: () => {
        events.push('last');
        // Anything queued now runs only after the synchronous block ends.
        queueMicrotask(() => events.push('someone else'));
      },
    };
    const written = new AdmissionChain([slow, last]).validate(ctx, attributes(), result(), () => events.push('write'));
    expect(written).toBeInstanceOf(Promise);
    await written;
    expect(events).toEqual(['last', 'write', 'someone else']);
  });
});
